import type { EventStore, Position, RecordedEvent, Subscription } from '@comanda/event-store';
import type { Projection } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { Logger } from 'pino';
import { resumePosition } from './read-model-freshness.js';

export type ProjectorState = 'starting' | 'live' | 'failed' | 'stopped';

interface Waiter {
  position: Position;
  resolve(reached: boolean): void;
  timer: NodeJS.Timeout;
}

export interface ProjectorOptions {
  store: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  logger: Logger;
  /** Checkpoint name in the read store; one projector instance per name. */
  name?: string;
}

/** A projection failed: the projector stops rather than skip the event. */
export class ProjectionFailed extends Error {
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    override readonly cause: unknown,
  ) {
    super(`Projection ${projection} failed on event ${event.id} (${event.type} at ${event.position})`);
    this.name = 'ProjectionFailed';
  }
}

/**
 * Follows the event log from its checkpoint and applies every projection, checkpointing after each
 * batch. A command's HTTP response waits on `waitFor(position)`, which gives read-your-writes.
 */
export class Projector {
  private subscription?: Subscription;
  private processed: Position | null = null;
  private waiters: Waiter[] = [];
  private readonly byType = new Map<string, Projection[]>();
  private readonly name: string;
  state: ProjectorState = 'starting';
  /** Events read from the log since start (all types, handled or not). */
  eventsSeen = 0;
  failure?: ProjectionFailed;

  constructor(private readonly options: ProjectorOptions) {
    this.name = options.name ?? 'projector';
    for (const p of options.projections) {
      for (const type of p.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), p]);
      for (const [name, indexes] of Object.entries(p.collections ?? {})) options.readStore.collection(name, indexes);
    }
  }

  /** Resolves once the read models include every event that was in the log at start. */
  async start(): Promise<void> {
    const { store, readStore, logger } = this.options;
    this.processed = await resumePosition({ store, readStore, projections: this.options.projections, name: this.name, logger });
    const head = await store.headPosition();
    const caughtUp = new Promise<void>((resolve, reject) => {
      const check = () => {
        if (head === null || (this.processed !== null && this.processed >= head)) {
          if (this.state === 'starting') this.state = 'live';
          resolve();
          return true;
        }
        return false;
      };
      if (check()) return;
      this.onBatch = check;
      this.onFailure = reject;
    });
    this.subscription = store.subscribeToAll(this.processed, {
      onEvents: (events) => this.apply(events),
      onError: (error) => this.fail(error),
    });
    await caughtUp;
    this.onBatch = undefined;
    logger.info({ projector: this.name, position: this.processed?.toString() ?? null }, 'projections caught up');
  }

  private onBatch?: () => boolean;
  private onFailure?: (error: unknown) => void;

  private async apply(events: RecordedEvent[]): Promise<void> {
    this.eventsSeen += events.length;
    const last = events[events.length - 1]!.position;
    const batch = async (readStore: ReadStore) => {
      for (const event of events) {
        const projections = this.byType.get(event.type);
        if (!projections) continue;
        for (const p of projections) {
          try {
            await p.apply(event, readStore);
          } catch (cause) {
            throw new ProjectionFailed(p.name, event, cause);
          }
        }
      }
      await readStore.setCheckpoint(this.name, last);
    };
    // Where the read store has transactions (PostgreSQL), a batch's documents and its checkpoint
    // commit together: a crash re-applies nothing. Elsewhere the per-document guard absorbs it.
    const { readStore } = this.options;
    if (readStore.transaction) await readStore.transaction(batch);
    else await batch(readStore);
    this.processed = last;
    this.onBatch?.();
    this.releaseWaiters();
  }

  private fail(error: unknown): void {
    this.state = 'failed';
    this.failure = error instanceof ProjectionFailed ? error : new ProjectionFailed('(subscription)', { id: '', position: 0n } as RecordedEvent, error);
    const f = this.failure;
    this.options.logger.error(
      { projector: this.name, projection: f.projection, eventId: f.event.id, eventType: f.event.type, err: f.cause },
      'projector stopped: a projection failed',
    );
    this.onFailure?.(f);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }

  private releaseWaiters(): void {
    if (this.waiters.length === 0 || this.processed === null) return;
    const reached = this.processed;
    this.waiters = this.waiters.filter((w) => {
      if (w.position > reached) return true;
      clearTimeout(w.timer);
      w.resolve(true);
      return false;
    });
  }

  position(): Position | null {
    return this.processed;
  }

  /** True once the read models include `position`; false after `timeoutMs` (the caller answers anyway). */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.processed !== null && this.processed >= position) return Promise.resolve(true);
    if (this.state === 'failed' || this.state === 'stopped' || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    if (this.state !== 'failed') this.state = 'stopped';
    await this.subscription?.close();
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }
}
