import {
  type Bus,
  type BusHandler,
  type BusMessage,
  type BusSubscription,
  type SubscribeOptions,
  DEDUP_WINDOW_MS,
  subjectFamily,
  subjectMatches,
} from './types.js';

interface Consumer {
  pattern: string;
  handler?: BusHandler<never>;
  queue: BusMessage[];
  draining: boolean;
  attempts: number;
  timer?: NodeJS.Timeout;
}

const MAX_BACKOFF_MS = 5_000;

/**
 * The standalone bus: delivery inside one process with the same guarantees the port promises
 * (de-duplication window, at-least-once with redelivery after a handler fails, per-consumer order).
 * Durable consumers keep queued messages while detached, for as long as the process lives.
 */
export class InProcessBus implements Bus {
  readonly durable = false;
  private readonly seen = new Map<string, number>();
  private readonly consumers = new Set<Consumer>();
  private readonly durables = new Map<string, Consumer>();
  private closed = false;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  async publish(subject: string, payload: unknown, dedupId: string): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    subjectFamily(subject);
    const t = this.now();
    this.forgetOlderThan(t - DEDUP_WINDOW_MS);
    if (this.seen.has(dedupId)) return;
    this.seen.set(dedupId, t);
    // A copy per consumer: one handler mutating a payload must not change what the next one sees.
    const json = JSON.stringify(payload);
    for (const c of this.consumers) {
      if (!subjectMatches(c.pattern, subject)) continue;
      c.queue.push({ subject, payload: JSON.parse(json), dedupId, redelivered: false });
      this.drain(c);
    }
  }

  private forgetOlderThan(limit: number): void {
    for (const [id, at] of this.seen) {
      if (at >= limit) break; // insertion order is time order
      this.seen.delete(id);
    }
  }

  async subscribe<T>(pattern: string, handler: BusHandler<T>, options: SubscribeOptions = {}): Promise<BusSubscription> {
    subjectFamily(pattern);
    let consumer = options.durable ? this.durables.get(options.durable) : undefined;
    if (!consumer) {
      consumer = { pattern, queue: [], draining: false, attempts: 0 };
      this.consumers.add(consumer);
      if (options.durable) this.durables.set(options.durable, consumer);
    }
    if (consumer.handler) throw new Error(`durable consumer ${options.durable} already has a subscriber`);
    consumer.handler = handler as BusHandler<never>;
    this.drain(consumer);
    const c = consumer;
    return {
      close: async () => {
        c.handler = undefined;
        clearTimeout(c.timer);
        if (!options.durable) this.consumers.delete(c);
      },
    };
  }

  private drain(c: Consumer): void {
    if (c.draining || !c.handler || c.timer) return;
    c.draining = true;
    void (async () => {
      while (c.handler && c.queue.length > 0 && !this.closed) {
        const message = c.queue[0]!;
        try {
          await c.handler(message as BusMessage<never>);
          c.queue.shift();
          c.attempts = 0;
        } catch {
          message.redelivered = true;
          c.attempts++;
          const delay = Math.min(MAX_BACKOFF_MS, 10 * 2 ** c.attempts);
          c.timer = setTimeout(() => {
            c.timer = undefined;
            this.drain(c);
          }, delay);
          c.timer.unref();
          break;
        }
      }
      c.draining = false;
    })();
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('bus closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.consumers) clearTimeout(c.timer);
  }
}
