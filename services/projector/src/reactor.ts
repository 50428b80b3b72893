import type { EventStore, RecordedEvent, Subscription } from '@comanda/event-store';
import type { Logger } from 'pino';
import type { CheckpointStore } from './checkpoint-file.js';

/** A process manager's reaction to one event: it issues commands; it must be idempotent. */
export interface Reaction {
  name: string;
  handles: readonly string[];
  react(event: RecordedEvent): Promise<void>;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * Runs process managers over the log from their checkpoint. A reaction that fails (a conflict storm,
 * the store briefly away) is retried with backoff and never skipped: the checkpoint only moves past
 * an event once every reaction to it has completed. Delivery is at least once.
 */
export class Reactor {
  private subscription?: Subscription;
  private stopped = false;
  private readonly wake = new Set<() => void>();
  state: 'starting' | 'live' | 'failed' | 'stopped' = 'starting';
  /** The last position handled (for the lag on /metrics). */
  position: bigint | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoint: CheckpointStore,
    private readonly reactions: Reaction[],
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const from = await this.checkpoint.get();
    this.state = 'live';
    this.position = from;
    this.subscription = this.store.subscribeToAll(from, {
      onEvents: async (events) => {
        // The checkpoint moves only past events whose every reaction succeeded: stopping in the middle
        // of a batch (or of a retry) keeps the unfinished event for the next start.
        let done: bigint | null = null;
        for (const event of events) {
          for (const r of this.reactions) {
            if (r.handles.includes(event.type) && !(await this.attempt(r, event))) {
              if (done !== null) await this.checkpoint.set(done);
              return;
            }
          }
          done = event.position;
        }
        if (done !== null) {
          this.position = done;
          await this.checkpoint.set(done);
        }
      },
      onError: (err) => {
        this.state = 'failed';
        this.logger.error({ err }, 'reactor stopped');
      },
    });
  }

  /** True once the reaction succeeded; false when the reactor stopped before it could. */
  private async attempt(reaction: Reaction, event: RecordedEvent): Promise<boolean> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await reaction.react(event);
        return true;
      } catch (err) {
        this.logger.warn({ err, reaction: reaction.name, eventId: event.id, attempt }, 'reaction failed; retrying');
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.wake.delete(done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(MAX_BACKOFF_MS, 50 * 2 ** attempt));
          this.wake.add(done);
        });
      }
    }
    return false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // A reaction waiting out its backoff gives up now instead of holding shutdown for up to 10 s.
    for (const wake of this.wake) wake();
    this.wake.clear();
    if (this.state !== 'failed') this.state = 'stopped';
    await this.subscription?.close();
    await this.checkpoint.flush();
  }
}
