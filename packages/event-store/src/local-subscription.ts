import type { Position, RecordedEvent, Subscription, SubscriptionHandlers } from './types.js';

/** What a log gives a subscription: a page read (synchronous for the embedded logs, async over a network). */
export interface LocalLogReader {
  readAfter(after: Position | null, limit: number): RecordedEvent[] | Promise<RecordedEvent[]>;
}

export interface SubscriptionOptions {
  /**
   * A failed page read (the server restarting) is retried after this many ms instead of stopping
   * the subscription; a handler's error still stops it. Unset: a read error stops it too.
   */
  retryReadsAfterMs?: number;
  /** Reads again at this interval even without a nudge (the nudge may come from another process). */
  pollMs?: number;
  /** A nudge while idle reads after this many ms, together with the nudges meanwhile (see SubscriptionHandlers.settleMs). */
  settleMs?: number;
  onReadError?(error: unknown): void;
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
  private timer?: NodeJS.Timeout;
  private settling?: NodeJS.Timeout;
  private readonly log: LocalLogReader;
  private readonly handlers: SubscriptionHandlers;
  private readonly onClose: (s: LocalSubscription) => void;
  private readonly options: SubscriptionOptions;

  constructor(
    log: LocalLogReader,
    after: Position | null,
    handlers: SubscriptionHandlers,
    onClose: (s: LocalSubscription) => void,
    options: SubscriptionOptions = {},
  ) {
    this.log = log;
    this.handlers = handlers;
    this.onClose = onClose;
    this.options = options;
    this.position = after;
    // Never call the handler before subscribeToAll has returned, as a network adapter would not.
    queueMicrotask(() => this.pumpNow());
  }

  nudge(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.nudged = true;
      return;
    }
    const settle = this.options.settleMs;
    if (settle) {
      if (this.settling) return;
      this.settling = setTimeout(() => {
        this.settling = undefined;
        this.pumpNow();
      }, settle);
      this.settling.unref();
      return;
    }
    this.pumpNow();
  }

  private pumpNow(): void {
    if (this.closed || this.pumping) return;
    this.pumping = true;
    this.idle = this.pump();
  }

  private async pump(): Promise<void> {
    let retryIn: number | undefined;
    try {
      do {
        this.nudged = false;
        for (;;) {
          if (this.closed) return;
          let page: RecordedEvent[];
          try {
            page = await this.log.readAfter(this.position, PAGE);
          } catch (error) {
            if (this.options.retryReadsAfterMs === undefined) throw error;
            this.options.onReadError?.(error);
            retryIn = this.options.retryReadsAfterMs;
            return;
          }
          if (page.length === 0) break;
          await this.handlers.onEvents(page);
          this.position = page[page.length - 1]!.position;
          // A page short of full held everything readable when it was read: whatever came after
          // nudges again (the loop goes round), so reading once more to find nothing is a round
          // trip saved on a networked log at every append.
          if (page.length < PAGE) break;
          // A full page means a catch-up (a rebuild, the reports after a restart): the embedded logs
          // read synchronously, so without this the whole log would be folded in one run of
          // microtasks, and no request, timer or health check would be served until it ended.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        // A settling subscriber takes what came meanwhile at its next settle, not at once.
      } while (this.nudged && !this.options.settleMs);
    } catch (error) {
      this.closed = true;
      this.onClose(this);
      this.handlers.onError?.(error);
    } finally {
      this.pumping = false;
      if (this.nudged && this.options.settleMs && retryIn === undefined) {
        this.nudged = false;
        this.nudge();
      }
      this.schedule(retryIn ?? this.options.pollMs);
    }
  }

  private schedule(ms: number | undefined): void {
    if (ms === undefined || this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.nudge(), ms);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.settling);
    this.onClose(this);
    await this.idle;
  }
}
