import type { Position, RecordedEvent, Subscription, SubscriptionHandlers } from './types.js';

/** What the embedded logs (memory, SQLite) give a subscription: a synchronous page read. */
export interface LocalLogReader {
  readAfter(after: Position | null, limit: number): RecordedEvent[];
}

const PAGE = 2000;

/**
 * Catch-up then live, by pulling: every append only nudges the subscription, which reads the log
 * from its own position. No event can fall between catch-up and live, and a slow handler never
 * makes the log buffer events for it.
 */
export class LocalSubscription implements Subscription {
  private position: Position | null;
  private pumping = false;
  private nudged = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: LocalLogReader,
    after: Position | null,
    private readonly handlers: SubscriptionHandlers,
    private readonly onClose: (s: LocalSubscription) => void,
  ) {
    this.position = after;
    // Never call the handler before subscribeToAll has returned, as a network adapter would not.
    queueMicrotask(() => this.nudge());
  }

  nudge(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.nudged = true;
      return;
    }
    this.pumping = true;
    this.idle = this.pump();
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.nudged = false;
        for (;;) {
          if (this.closed) return;
          const page = this.log.readAfter(this.position, PAGE);
          if (page.length === 0) break;
          await this.handlers.onEvents(page);
          this.position = page[page.length - 1]!.position;
        }
      } while (this.nudged);
    } catch (error) {
      this.closed = true;
      this.onClose(this);
      this.handlers.onError?.(error);
    } finally {
      this.pumping = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.onClose(this);
    await this.idle;
  }
}
