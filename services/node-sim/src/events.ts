import { signWebhook } from '@comanda/lightning';
import type { Logger } from 'pino';

// Webhook delivery of payment_received events. The real node posts once and forgets; the simulator
// retries failed deliveries with exponential backoff a bounded number of times.

export interface WebhookPolicy {
  /** Total attempts, the first included. */
  attempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  initialDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = { attempts: 5, initialDelayMs: 500, timeoutMs: 5000 };

export class WebhookSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  private readonly policy: WebhookPolicy;
  private readonly log: Logger;

  constructor(
    policy: WebhookPolicy,
    log: Logger,
  ) {
    this.policy = policy;
    this.log = log;
  }

  /** Sends `event` to each URL once it succeeds (2xx) or attempts run out. */
  send(urls: readonly string[], event: Record<string, unknown>, secret: string): void {
    const body = JSON.stringify(event);
    const signature = signWebhook(body, secret);
    for (const url of new Set(urls)) this.attempt(url, body, signature, 1);
  }

  private attempt(url: string, body: string, signature: string, attempt: number): void {
    if (this.closed) return;
    const delivery = this.post(url, body, signature).then((ok) => {
      if (ok || this.closed) return;
      if (attempt >= this.policy.attempts) {
        this.log.warn({ url, attempts: attempt }, 'webhook delivery abandoned');
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(url, body, signature, attempt + 1);
      }, this.policy.initialDelayMs * 2 ** (attempt - 1));
      this.timers.add(timer);
    });
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private async post(url: string, body: string, signature: string): Promise<boolean> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-node-signature': signature },
        body,
        signal: AbortSignal.timeout(this.policy.timeoutMs),
      });
      await response.arrayBuffer();
      if (!response.ok) this.log.warn({ url, status: response.status }, 'webhook rejected');
      return response.ok;
    } catch (error) {
      this.log.warn({ url, err: (error as Error).message }, 'webhook unreachable');
      return false;
    }
  }

  /** Cancels pending retries and waits for requests already sent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
