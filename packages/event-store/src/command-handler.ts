import { type Decider, DomainError, type DomainEvent, conflict, newId, preconditionFailed } from '@comanda/domain';
import { type Folded, snapshotIfDue, startingPoint } from './snapshots.js';
import { type EventStore, type NewEvent, type Position, WrongExpectedRevision } from './types.js';

export interface CommandContext {
  userId?: string | null;
  correlationId?: string;
  causationId?: string;
  idempotency?: { key: string; fingerprint: string };
  /** The revision the client last saw (If-Match): a mismatch is 412, never a silent retry. */
  expectedRevision?: number;
}

export interface CommandResult<E, S> {
  events: E[];
  state: S;
  /** -1 while the stream does not exist. */
  revision: number;
  /** Position of the last appended event; null when the command changed nothing. */
  position: Position | null;
  /** True when the Idempotency-Key was seen before: `events` are the ones the first request appended. */
  replayed: boolean;
}

type Cached<S> = Folded<S>;

/** How many idempotency keys a stream remembers (the newest ones). */
const KEYS_PER_STREAM = 1000;

const MAX_ATTEMPTS = 20;

const noop = () => {};

/** How each command ended, for metrics; the handler never depends on how they are exported. */
export interface CommandObserver {
  outcome(stream: string, outcome: 'ok' | 'conflict_retried' | 'rejected' | 'unchanged' | 'replayed' | 'failed'): void;
  conflict(stream: string): void;
}

const silent: CommandObserver = { outcome: () => {}, conflict: () => {} };

interface QueueEntry {
  /** Resolves once this command has handed its events to the store (or finished without). */
  handedOver: Promise<void>;
  /** Resolves once this command and every one before it have finished. */
  settled: Promise<void>;
}

/**
 * Writers in other processes kept winning the race for this stream through every retry: a transient
 * condition, answered 503 with Retry-After rather than a 500 (nothing was written).
 */
export class StreamContended extends Error {
  readonly stream: string;
  constructor(stream: string) {
    super(`Stream ${stream} kept changing under this command; nothing was written`);
    this.stream = stream;
    this.name = 'StreamContended';
  }
}

/**
 * Load → decide → append with the expected revision. On a concurrency conflict the command is decided
 * again on the fresh state, so commuting commands (two waiters adding dishes) both land and
 * non-commuting ones are re-validated; only a client-pinned revision (If-Match) turns into 412.
 * Folded states are cached per decider and stream (two deciders may read one stream, each with its
 * own state), so a command reads only the events it has not seen. Deciders are told apart by
 * identity: make each once (a module constant), never one per command, or nothing is cached.
 */
export class CommandHandler {
  /** Keyed by `cacheKey(decider, stream)`. */
  private readonly cache = new Map<string, Cached<unknown>>();
  /** A number per decider seen, for the cache's keys; deciders are module constants, so it stays small. */
  private readonly deciders = new WeakMap<object, number>();
  private decidersSeen = 0;
  /** The last command queued on each stream in this process. */
  private readonly queues = new Map<string, QueueEntry>();
  private readonly store: EventStore;
  private readonly cacheSize: number;
  private readonly observer: CommandObserver;

  constructor(
    store: EventStore,
    cacheSize = 20_000,
    observer: CommandObserver = silent,
  ) {
    this.store = store;
    this.cacheSize = cacheSize;
    this.observer = observer;
  }

  /** True when this handler makes every append to its log (see EventStore.soleWriter). */
  get soleWriter(): boolean {
    return this.store.soleWriter === true;
  }

  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string): Promise<Cached<S>> {
    const key = this.cacheKey(decider, stream);
    const cached = this.cache.get(key) as Cached<S> | undefined;
    const start = cached ?? (await startingPoint(this.store, decider as Decider<unknown, unknown, S>, stream));
    let { state, revision } = start;
    // Only ever grows with recorded facts, so sharing it with a command in flight is safe.
    const { keys } = start;
    const fresh = await this.store.readStream(stream, revision + 1);
    for (const e of fresh) {
      state = decider.evolve(state, { type: e.type, data: e.data } as E);
      revision = e.revision;
      const idem = e.metadata.idempotency as { key: string; fingerprint: string } | undefined;
      if (idem) {
        const seen = keys.get(idem.key);
        const event = { type: e.type, data: e.data };
        if (seen && seen.fingerprint === idem.fingerprint && seen.revision === e.revision - 1) {
          keys.set(idem.key, { ...seen, events: [...seen.events, event], revision: e.revision, position: e.position });
        } else {
          keys.set(idem.key, { fingerprint: idem.fingerprint, events: [event], revision: e.revision, position: e.position });
        }
        if (keys.size > KEYS_PER_STREAM) keys.delete(keys.keys().next().value!);
      }
    }
    const loaded = { revision, state, keys, snapshotAt: start.snapshotAt };
    if (fresh.length > 0 || !cached) this.remember(key, loaded);
    // Only a state read from the store may be saved; a cached one can be speculative (see handle).
    if (!cached) await this.snapshot(decider, stream, loaded);
    return loaded;
  }

  /**
   * Commands on one stream are queued in this process, so a process never conflicts with itself (two
   * payments or two waiters on one order just queue). The queue is pipelined: the next command decides
   * on the state the previous one will produce as soon as its events are handed to the store, so both
   * land in the same group commit; if the previous append fails, the next one's expected revision fails
   * too and it decides again on what was really written. A command with an Idempotency-Key waits for
   * everything ahead to settle, so it always sees the keys recorded before it. Optimistic concurrency
   * still guards against other processes (replicas) writing the same stream.
   *
   * Pipelining needs a sole writer (`store.soleWriter`). With replicas, an append ahead may lose to
   * another process's event, and the one behind it, expecting the revision after it, would then find
   * that event in its place and land on top of it, decided on a state that never was (and cached as
   * the truth: issue 43's stuck tables). Without a sole writer, a command waits until everything
   * ahead has settled and decides on what was really written.
   */
  handle<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string, command: C, context: CommandContext = {}): Promise<CommandResult<E, S>> {
    const ahead = this.queues.get(stream);
    let handOver!: () => void;
    const handedOver = new Promise<void>((resolve) => (handOver = resolve));
    const go = () => this.observed(stream, (tries) => this.decideAndAppend(decider, stream, command, context, handOver, tries));
    const wait = context.idempotency || !this.store.soleWriter ? ahead?.settled : ahead?.handedOver;
    const run = wait ? wait.then(go) : go();
    const done = run.then(noop, noop);
    void done.then(handOver);
    const entry: QueueEntry = { handedOver, settled: ahead ? Promise.all([ahead.settled, done]).then(noop) : done };
    this.queues.set(stream, entry);
    void entry.settled.then(() => {
      if (this.queues.get(stream) === entry) this.queues.delete(stream);
    });
    return run;
  }

  /** Reports the command's outcome to the observer (metrics): decided again after a conflict or not. */
  private async observed<E, S>(stream: string, run: (tries: { n: number }) => Promise<CommandResult<E, S>>): Promise<CommandResult<E, S>> {
    const tries = { n: 0 };
    try {
      const result = await run(tries);
      this.observer.outcome(stream, result.replayed ? 'replayed' : result.position === null ? 'unchanged' : tries.n > 1 ? 'conflict_retried' : 'ok');
      return result;
    } catch (error) {
      // A domain refusal, a stale If-Match or a stream contended past the retries: nothing was written.
      const refused = error instanceof DomainError || error instanceof WrongExpectedRevision || error instanceof StreamContended;
      this.observer.outcome(stream, refused ? 'rejected' : 'failed');
      throw error;
    }
  }

  private async decideAndAppend<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    command: C,
    context: CommandContext,
    handOver: () => void,
    tries: { n: number },
  ): Promise<CommandResult<E, S>> {
    const key = this.cacheKey(decider, stream);
    for (let attempt = 1; ; attempt++) {
      tries.n = attempt;
      const loaded = await this.load(decider, stream);
      const { revision, state, keys } = loaded;
      if (context.idempotency) {
        const seen = keys.get(context.idempotency.key);
        if (seen && seen.fingerprint !== context.idempotency.fingerprint) {
          throw conflict('Idempotency-Key was already used for a different request', { code: 'idempotency_key_reused' });
        }
        if (seen) return { events: seen.events as E[], state, revision, position: seen.position, replayed: true };
      }
      if (context.expectedRevision !== undefined && context.expectedRevision !== revision) throw preconditionFailed();
      const events = decider.decide(command, state);
      if (events.length === 0) return { events, state, revision, position: null, replayed: false };
      const occurredAt = Date.now();
      const toAppend: NewEvent[] = events.map((e) => ({
        id: newId(),
        type: e.type,
        data: e.data,
        metadata: {
          occurredAt,
          userId: context.userId ?? null,
          correlationId: context.correlationId,
          causationId: context.causationId,
          idempotency: context.idempotency,
          schemaVersion: 1,
        },
      }));
      let next = state;
      for (const e of events) next = decider.evolve(next, e);
      const appending = this.store.append(stream, toAppend, revision === -1 ? 'no_stream' : revision);
      // Speculative until the append resolves: the next queued command decides on it (see handle).
      this.remember(key, { revision: revision + events.length, state: next, keys, snapshotAt: loaded.snapshotAt });
      handOver();
      try {
        const result = await appending;
        if (context.idempotency) {
          keys.set(context.idempotency.key, { fingerprint: context.idempotency.fingerprint, events, revision: result.nextRevision, position: result.position });
        }
        const written = { revision: result.nextRevision, state: next, keys, snapshotAt: loaded.snapshotAt };
        // A command queued behind this one may already have remembered the state after its own events.
        const current = this.cache.get(key);
        if (!current || current.revision <= written.revision) this.remember(key, written);
        await this.snapshot(decider, stream, written);
        return { events, state: next, revision: result.nextRevision, position: result.position, replayed: false };
      } catch (error) {
        // What was remembered never happened. Without pipelining, what this attempt decided on was
        // written or read (never speculative), so the next attempt reads only the events after it (a
        // long stream's fold is not redone at every conflict); pipelined, the stream is read again.
        if (this.store.soleWriter) this.cache.delete(key);
        else this.remember(key, loaded);
        if (!(error instanceof WrongExpectedRevision)) throw error;
        this.observer.conflict(stream);
        if (context.expectedRevision !== undefined) throw preconditionFailed();
        if (attempt >= MAX_ATTEMPTS) throw new StreamContended(stream);
        // Jitter spreads many writers racing on one hot stream.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
      }
    }
  }

  /**
   * The folded state of a stream, for commands that need to read another aggregate first. It waits
   * for the commands queued on that stream in this process, so it never shows a speculative state.
   */
  async state<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string): Promise<{ state: S; revision: number }> {
    await this.queues.get(stream)?.settled;
    const { state, revision } = await this.load(decider, stream);
    return { state, revision };
  }

  /**
   * The folded state when it is known to be current without waiting: no command queued on the stream
   * in this process (so the cached fold is not speculative) and the store can tell, without a query,
   * that nothing was appended after it. Undefined otherwise: the caller awaits `state`. It spares a
   * signed-in request's check of its session and the roster two awaits and a read.
   */
  currentState<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string): { state: S; revision: number } | undefined {
    if (this.queues.has(stream)) return undefined;
    const cached = this.cache.get(this.cacheKey(decider, stream)) as Cached<S> | undefined;
    if (!cached || !this.store.knownToEndAt?.(stream, cached.revision)) return undefined;
    return { state: cached.state, revision: cached.revision };
  }

  /** Snapshots are a cache of the log: a failure to write one is logged by nobody and costs a longer fold. */
  private async snapshot<S>(decider: Decider<unknown, unknown, S> | Decider<never, never, S>, stream: string, folded: Cached<S>): Promise<void> {
    try {
      await snapshotIfDue(this.store, decider as Decider<unknown, unknown, S>, stream, folded);
    } catch {
      // The next one is tried SNAPSHOT_EVERY events later at the latest.
    }
  }

  /** One decider's fold of one stream: the same stream folded by another decider is another entry. */
  private cacheKey(decider: object, stream: string): string {
    let id = this.deciders.get(decider);
    if (id === undefined) this.deciders.set(decider, (id = this.decidersSeen++));
    return `${id}:${stream}`;
  }

  private remember(key: string, value: Cached<unknown>): void {
    this.cache.delete(key);
    this.cache.set(key, value);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}
