import type { IncomingPayment, NodeClient } from '@comanda/lightning';
import type { Logger } from 'pino';
import type { PaymentReceived } from './payment-received.js';

/** Where the reconciler remembers how far it has read the node's list (ms of the newest payment seen). */
export interface ReconcilerCheckpoint {
  get(): Promise<bigint | null>;
  set(value: bigint): Promise<void>;
  flush(): Promise<void>;
}

export interface ReconcilerOptions {
  node: Pick<NodeClient, 'listIncoming' | 'getIncoming'>;
  /** Records a payment exactly as a webhook would (same events, same dedup by hash); true when new. */
  record: (payment: PaymentReceived) => Promise<boolean>;
  checkpoint: ReconcilerCheckpoint;
  /** Timer period; the timer covers a websocket that is down and webhooks that never came. */
  everyMs: number;
  /** How far before the checkpoint each pass starts reading again. */
  overlapMs?: number;
  pageSize?: number;
  logger: Logger;
}

export interface ReconcilerStats {
  passes: number;
  failedPasses: number;
  /** Payments this process recorded that no webhook had delivered. */
  recovered: number;
  lastPassAt: number | null;
  lastError: string | null;
}

/** Ten minutes: a payment the node lists late (clock steps, a slow commit) is still read again. */
export const DEFAULT_OVERLAP_MS = 10 * 60_000;

/** An incoming record the node says was paid, as the webhook would have carried it. */
export function paymentFromRecord(p: IncomingPayment): PaymentReceived | null {
  if (!p.isPaid || p.completedAt === undefined || !/^[0-9a-f]{64}$/i.test(p.paymentHash)) return null;
  return {
    type: 'payment_received',
    timestamp: p.completedAt,
    amountSat: p.receivedSat,
    paymentHash: p.paymentHash.toLowerCase(),
    externalId: p.externalId ?? null,
    payerNote: p.payerNote ?? null,
    payerKey: p.payerKey ?? null,
  };
}

/**
 * Asks the node what it received and records whatever is missing: at start, on a timer, and for each
 * payment the node's websocket announces. The node's list is newest first, so payments arriving while
 * a pass pages through it only shift pages (a record read twice, never one skipped); each pass starts
 * `overlapMs` before the newest payment seen, and the checkpoint moves only after every payment of the
 * pass is recorded. Losing the checkpoint is safe: the next pass reads more and records nothing twice.
 */
export class Reconciler {
  readonly stats: ReconcilerStats = { passes: 0, failedPasses: 0, recovered: 0, lastPassAt: null, lastError: null };
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly options: ReconcilerOptions;

  constructor(options: ReconcilerOptions) {
    this.options = options;
  }

  /** Runs a first pass in the background (a node that is down must not stop the service) and the timer. */
  start(): void {
    this.stopped = false;
    void this.reconcile().catch(() => {});
    this.timer = setInterval(() => void this.reconcile().catch(() => {}), this.options.everyMs);
    this.timer.unref();
  }

  /**
   * One pass; concurrent callers share it, and a call that arrives during a pass gets one more pass
   * after it, so a payment announced mid-pass is never missed.
   */
  reconcile(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.stopped);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** The websocket said this payment arrived: ask the node for its record and record it. */
  async paymentAnnounced(paymentHash: string): Promise<void> {
    try {
      const payment = paymentFromRecord(await this.options.node.getIncoming(paymentHash));
      if (payment && (await this.options.record(payment))) this.stats.recovered++;
    } catch (error) {
      // The timer's next pass will find it; a full pass now would cost more than it saves.
      this.options.logger.warn({ err: error, paymentHash }, 'announced payment not recorded yet; the next pass will');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running?.catch(() => {});
  }

  private async pass(): Promise<void> {
    const { node, checkpoint, logger } = this.options;
    const pageSize = this.options.pageSize ?? 100;
    try {
      const since = Number((await checkpoint.get()) ?? 0n);
      const from = Math.max(0, since - (this.options.overlapMs ?? DEFAULT_OVERLAP_MS));
      let newest = since;
      let recovered = 0;
      for (let offset = 0; !this.stopped; ) {
        const page = await node.listIncoming({ from, limit: pageSize, offset });
        const payments = page.map(paymentFromRecord).filter((p): p is PaymentReceived => p !== null);
        const fresh = await Promise.all(payments.map((p) => this.options.record(p)));
        recovered += fresh.filter(Boolean).length;
        for (const p of payments) newest = Math.max(newest, p.timestamp);
        if (page.length < pageSize) break;
        offset += page.length;
      }
      if (this.stopped) return;
      await checkpoint.set(BigInt(newest));
      await checkpoint.flush();
      this.stats.passes++;
      this.stats.recovered += recovered;
      this.stats.lastPassAt = Date.now();
      this.stats.lastError = null;
      if (recovered > 0) logger.warn({ recovered }, 'reconciliation recorded payments no webhook had delivered');
    } catch (error) {
      this.stats.failedPasses++;
      this.stats.lastError = error instanceof Error ? error.message : String(error);
      logger.warn({ err: error }, 'reconciliation with the node failed; retrying on the next pass');
      throw error;
    }
  }
}
