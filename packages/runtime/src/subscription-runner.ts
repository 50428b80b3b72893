import type { EventStore, Position, RecordedEvent, Subscription } from '@comanda/event-store';
import type { ReadStore } from '@comanda/read-store';
import type { Logger } from 'pino';
import type { CheckpointStore } from './checkpoints.js';

export type RunnerState = 'starting' | 'live' | 'failed' | 'stopped';

/** What a handler gets with each batch. */
export interface BatchScope {
  /** The transaction's view of the read store, when the batch runs in one (`transactional`). */
  readStore?: ReadStore;
  /** Aborted when the runner stops: a handler waiting (backoff, retries) gives up and stops short. */
  signal: AbortSignal;
}

export interface SubscriptionOptions {
  /** Names the part in logs, warnings and /metrics (`projector`, `relay`, `reactor`…). */
  name: string;
  store: EventStore;
  checkpoint: CheckpointStore;
  logger: Logger;
  /**
   * Handles a batch in log order and resolves to the position up to which EVERY event is handled
   * (null: none yet). That position, and only that, is checkpointed: a handler that stops short, or
   * leaves an event for later (a scheduled reaction), returns the position before it.
   */
  handle(events: RecordedEvent[], scope: BatchScope): Promise<Position | null>;
  /** A first run (no checkpoint) starts at the beginning of the log, or at its head (only new events). */
  fresh?: 'start' | 'head';
  /** Each batch and its checkpoint in one read-store transaction, when the checkpoint store offers it. */
  transactional?: boolean;
  /** `start()` resolves only once every event in the log at start is handled (read models before the API). */
  catchUp?: boolean;
  /** Told of every checkpointed position (read-your-writes waiters). */
  onProgress?(position: Position): void;
  /** Told once when the subscription stops on an error; logs it (otherwise the runner logs it). */
  onFailure?(error: unknown): void;
}

/**
 * The one subscription runtime under projections, relays and reactions. Its checkpoint contract:
 * the checkpoint never moves past an event that has not been handled, whether the runner stops, a
 * handler fails, or the process dies; positions only move forward, and writes are serialised. A
 * handler error stops the runner (`state: failed`): the event is never skipped, and the next start
 * delivers it again.
 */
export class SubscriptionRunner {
  state: RunnerState = 'starting';
  /** The last checkpointed position (every event up to it handled). */
  position: Position | null = null;
  /** Events read from the log since start (handled or not). */
  eventsSeen = 0;
  failure?: unknown;
  private subscription?: Subscription;
  private readonly abort = new AbortController();
  private writes: Promise<void> = Promise.resolve();
  private closed = false;
  private caughtUp?: { head: Position | null; resolve(): void; reject(error: unknown): void };
  private readonly options: SubscriptionOptions;

  constructor(options: SubscriptionOptions) {
    this.options = options;
  }

  get name(): string {
    return this.options.name;
  }

  async start(): Promise<void> {
    const { store, checkpoint, logger, name } = this.options;
    let from = await checkpoint.get();
    const head = await store.headPosition();
    if (from !== null && from > (head ?? 0n)) {
      // The log lost its tail (an older backup restored, a file swapped): said once, loudly.
      logger.warn({ checkpoint: name, position: String(from), head: String(head ?? 0n) },
        `The ${name} checkpoint (${from}) is ahead of the event log's head (${head ?? 0n}): the log has lost events it once had (restored from an older backup?). The ${name} will not see new events until the log passes ${from}; restore the newer log, or remove the ${name} checkpoint to start it again.`);
    }
    if (from === null && this.options.fresh === 'head') from = head;
    this.position = from;
    const ready = this.options.catchUp && !(head === null || (from !== null && from >= head))
      ? new Promise<void>((resolve, reject) => (this.caughtUp = { head, resolve, reject }))
      : undefined;
    this.subscription = store.subscribeToAll(from, {
      onEvents: (events) => this.batch(events),
      onError: (error) => this.fail(error),
    });
    await ready;
    this.caughtUp = undefined;
    if (this.state === 'starting') this.state = 'live';
  }

  private async batch(events: RecordedEvent[]): Promise<void> {
    if (this.abort.signal.aborted) return;
    this.eventsSeen += events.length;
    const { checkpoint, handle, transactional } = this.options;
    if (transactional && checkpoint.transaction) {
      let done: Position | null = null;
      await checkpoint.transaction(async (readStore, inTransaction) => {
        done = await handle(events, { readStore, signal: this.abort.signal });
        if (done !== null && (this.position === null || done > this.position)) await inTransaction.set(done);
      });
      if (done !== null) this.moved(done);
      return;
    }
    const done = await handle(events, { signal: this.abort.signal });
    if (done !== null) await this.advance(done);
  }

  /**
   * Moves the checkpoint to `position`, which the caller guarantees is handled with everything
   * before it (a scheduled reaction completing after its batch). Never backwards.
   */
  advance(position: Position): Promise<void> {
    if (this.closed || (this.position !== null && position <= this.position)) return this.writes;
    this.moved(position);
    this.writes = this.writes.then(() => this.options.checkpoint.set(position));
    return this.writes;
  }

  private moved(position: Position): void {
    if (this.position !== null && position <= this.position) return;
    this.position = position;
    this.options.onProgress?.(position);
    if (this.caughtUp && (this.caughtUp.head === null || position >= this.caughtUp.head)) this.caughtUp.resolve();
  }

  private fail(error: unknown): void {
    this.state = 'failed';
    this.failure = error;
    if (this.options.onFailure) this.options.onFailure(error);
    else this.options.logger.error({ part: this.options.name, err: error }, `${this.options.name} stopped`);
    this.caughtUp?.reject(error);
  }

  /** Stops taking events; what was handled is checkpointed (flushed), nothing beyond it. */
  async stop(): Promise<void> {
    if (this.state !== 'failed') this.state = 'stopped';
    this.abort.abort();
    await this.subscription?.close();
    await this.writes.catch(() => undefined);
    this.closed = true;
    await this.options.checkpoint.flush();
  }
}
