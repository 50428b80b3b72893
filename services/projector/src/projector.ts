import type { EventStore, Position, RecordedEvent } from '@comanda/event-store';
import type { Projection } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import { SubscriptionRunner, readStoreCheckpoint } from '@comanda/runtime';
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
  /** Told of every position the read models have come to (the process's read-your-writes). */
  onProgress?(position: Position): void;
}

/** A projection failed: the projector stops rather than skip the event. */
export class ProjectionFailed extends Error {
  readonly projection: string;
  readonly event: RecordedEvent;
  override readonly cause: unknown;
  constructor(
    projection: string,
    event: RecordedEvent,
    cause: unknown,
  ) {
    super(`Projection ${projection} failed on event ${event.id} (${event.type} at ${event.position})`);
    this.projection = projection;
    this.event = event;
    this.cause = cause;
    this.name = 'ProjectionFailed';
  }
}

/**
 * Applies every projection to the log under the subscription runner: each batch and its checkpoint
 * in one read-store transaction where the store offers it (PostgreSQL: exactly once), elsewhere the
 * per-document guard absorbs a re-delivery. A command's HTTP response waits on `waitFor(position)`,
 * which gives read-your-writes.
 */
export class Projector {
  private readonly runner: SubscriptionRunner;
  private waiters: Waiter[] = [];
  private readonly byType = new Map<string, Projection[]>();
  private readonly name: string;
  failure?: ProjectionFailed;
  private readonly options: ProjectorOptions;

  constructor(options: ProjectorOptions) {
    this.options = options;
    this.name = options.name ?? 'projector';
    for (const p of options.projections) {
      for (const type of p.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), p]);
      for (const [name, indexes] of Object.entries(p.collections ?? {})) options.readStore.collection(name, indexes);
    }
    this.runner = new SubscriptionRunner({
      name: this.name,
      store: options.store,
      checkpoint: readStoreCheckpoint(options.readStore, this.name),
      logger: options.logger,
      fresh: 'start',
      transactional: true,
      catchUp: true,
      handle: (events, scope) => this.apply(events, scope.readStore ?? options.readStore),
      onProgress: (position) => {
        this.releaseWaiters();
        options.onProgress?.(position);
      },
      onFailure: (error) => this.fail(error),
    });
  }

  get state(): ProjectorState {
    return this.runner.state;
  }

  /** Events read from the log since start (all types, handled or not). */
  get eventsSeen(): number {
    return this.runner.eventsSeen;
  }

  /** Resolves once the read models include every event that was in the log at start. */
  async start(): Promise<void> {
    // Read models that do not fit this log or these projections are emptied first (their checkpoint
    // goes back to 0), so the runner below rebuilds them from the start of the log.
    const { store, readStore, projections, logger } = this.options;
    await resumePosition({ store, readStore, projections, name: this.name, logger });
    await this.runner.start();
    this.options.logger.info({ projector: this.name, position: this.position()?.toString() ?? null }, 'projections caught up');
  }

  private async apply(events: RecordedEvent[], readStore: ReadStore): Promise<Position> {
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
    return events[events.length - 1]!.position;
  }

  private fail(error: unknown): void {
    this.failure = error instanceof ProjectionFailed ? error : new ProjectionFailed('(subscription)', { id: '', position: 0n } as RecordedEvent, error);
    const f = this.failure;
    this.options.logger.error(
      { projector: this.name, projection: f.projection, eventId: f.event.id, eventType: f.event.type, err: f.cause },
      'projector stopped: a projection failed',
    );
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }

  private releaseWaiters(): void {
    const reached = this.runner.position;
    if (this.waiters.length === 0 || reached === null) return;
    this.waiters = this.waiters.filter((w) => {
      if (w.position > reached) return true;
      clearTimeout(w.timer);
      w.resolve(true);
      return false;
    });
  }

  position(): Position | null {
    return this.runner.position;
  }

  /** True once the read models include `position`; false after `timeoutMs` (the caller answers anyway). */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const processed = this.runner.position;
    if (processed !== null && processed >= position) return Promise.resolve(true);
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
    await this.runner.stop();
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }
}
