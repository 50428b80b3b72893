import type { EventStore, RecordedEvent } from '@comanda/event-store';
import { type CheckpointStore, DueQueue, SubscriptionRunner } from '@comanda/runtime';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

/** A process manager's reaction to one event: it issues commands; it must be idempotent. */
export interface Reaction {
  name: string;
  handles: readonly string[];
  react(event: RecordedEvent): Promise<void>;
  /**
   * How long after now the reaction is due (a grace period), 0 or absent for at once. A delayed
   * reaction is scheduled, never slept: the reactor goes on with the next events meanwhile.
   */
  delayMs?(event: RecordedEvent): number;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * Where the reactor tells API replicas in other processes how far its immediate reactions are done:
 * `report(through)` once every event up to `through` has had its immediate reactions (their commands
 * appended). Scheduled reactions (a grace period) are not waited for.
 */
export interface ReactionProgress {
  report(through: bigint): Promise<void>;
}

/** One event's reactions still to finish; the event is handled when none is left. */
interface Outstanding {
  position: bigint;
  open: number;
}

/**
 * Runs process managers over the log under the subscription runner. A reaction that fails (a
 * conflict storm, the store briefly away) is retried with backoff and never skipped. A delayed
 * reaction waits in a due-time queue while the reactor handles the events after it; the checkpoint
 * stays before the oldest event with a reaction not yet done, so a restart delivers that event again
 * and its reaction is scheduled again from the event's own time (the queue needs no storage).
 * Delivery is at least once.
 */
export class Reactor {
  private readonly runner: SubscriptionRunner;
  private readonly due = new DueQueue();
  private readonly stopping = new AbortController();
  /** Events handed to reactions, oldest first, until every one before them is done too. */
  private outstanding: Outstanding[] = [];
  private readonly reactions: Reaction[];
  private readonly logger: Logger;
  private readonly progress?: ReactionProgress;

  constructor(
    store: EventStore,
    checkpoint: CheckpointStore,
    reactions: Reaction[],
    logger: Logger,
    name = 'reactor',
    progress?: ReactionProgress,
  ) {
    this.reactions = reactions;
    this.logger = logger;
    this.progress = progress;
    this.runner = new SubscriptionRunner({ name, store, checkpoint, logger, fresh: 'start', handle: (events) => this.react(events) });
  }

  get state() {
    return this.runner.state;
  }

  /** The last position checkpointed (for the lag on /metrics). */
  get position(): bigint | null {
    return this.runner.position;
  }

  /** Reactions waiting for their time or running late (for tests and /health details). */
  get scheduled(): number {
    return this.due.size;
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  private async react(events: RecordedEvent[]): Promise<bigint | null> {
    for (const event of events) {
      const entry: Outstanding = { position: event.position, open: 0 };
      this.outstanding.push(entry);
      for (const reaction of this.reactions) {
        if (!reaction.handles.includes(event.type)) continue;
        const delay = reaction.delayMs?.(event) ?? 0;
        if (delay > 0) {
          entry.open++;
          this.due.schedule(Date.now() + delay, async () => {
            if (!(await this.attempt(reaction, event))) return;
            entry.open--;
            const done = this.settled();
            if (done !== null) await this.runner.advance(done);
          });
        } else if (!(await this.attempt(reaction, event))) {
          // Stopped before it succeeded: this event stays unhandled, and so does every one after it.
          entry.open++;
          return this.settled();
        }
      }
    }
    await this.report(events[events.length - 1]!.position);
    return this.settled();
  }

  /** Advisory (a write's answer waits on it, bounded): a failure to report is logged, never a stop. */
  private async report(through: bigint): Promise<void> {
    try {
      await this.progress?.report(through);
    } catch (err) {
      this.logger.warn({ err }, 'reactor: could not report its progress to the API replicas');
    }
  }

  /** The last event such that it and every event before it are handled; null when none moved. */
  private settled(): bigint | null {
    let done: bigint | null = null;
    while (this.outstanding.length > 0 && this.outstanding[0]!.open === 0) done = this.outstanding.shift()!.position;
    return done;
  }

  /** True once the reaction succeeded; false when the reactor stopped before it could. */
  private async attempt(reaction: Reaction, event: RecordedEvent): Promise<boolean> {
    const { signal } = this.stopping;
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        await reaction.react(event);
        return true;
      } catch (err) {
        if (signal.aborted) break;
        this.logger.warn({ err, reaction: reaction.name, eventId: event.id, attempt }, 'reaction failed; retrying');
        // A reaction waiting out its backoff gives up at stop instead of holding shutdown for up to 10 s.
        await sleep(Math.min(MAX_BACKOFF_MS, 50 * 2 ** attempt), undefined, { signal }).catch(() => undefined);
      }
    }
    return false;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.due.stop();
    await this.runner.stop();
  }
}
