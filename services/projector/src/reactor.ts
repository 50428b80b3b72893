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
        for (const event of events) {
          for (const r of this.reactions) if (r.handles.includes(event.type)) await this.attempt(r, event);
        }
        this.position = events[events.length - 1]!.position;
        await this.checkpoint.set(this.position);
      },
      onError: (err) => {
        this.state = 'failed';
        this.logger.error({ err }, 'reactor stopped');
      },
    });
  }

  private async attempt(reaction: Reaction, event: RecordedEvent): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        return await reaction.react(event);
      } catch (err) {
        this.logger.warn({ err, reaction: reaction.name, eventId: event.id, attempt }, 'reaction failed; retrying');
        await new Promise((r) => setTimeout(r, Math.min(MAX_BACKOFF_MS, 50 * 2 ** attempt)));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.state !== 'failed') this.state = 'stopped';
    await this.subscription?.close();
    await this.checkpoint.flush();
  }
}
