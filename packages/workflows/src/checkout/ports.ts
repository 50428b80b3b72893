import type { CommandHandler } from '@comanda/event-store';

/** A fresh rate, or a throw (ExchangeRates' NoRateError): checkout never prices a bill on a guess. */
export interface RateLookup {
  rate(currency: string): Promise<{ currency: string; rate: string; source: string; at: number }>;
}

/** The part of the node client checkout and refunds use (packages/lightning's NodeClient). */
export interface CheckoutNode {
  createInvoice(p: { description: string; amountSat?: number; expirySeconds?: number; externalId?: string }): Promise<{ paymentHash: string; serialized: string; amountSat?: number }>;
  payInvoice(p: { invoice: string; amountSat?: number }): Promise<{ paymentHash: string; routingFeeSat: number; recipientAmountSat: number }>;
  getOutgoingByHash(paymentHash: string): Promise<{ isPaid: boolean; fees: number; completedAt?: number }>;
}

export interface CheckoutDeps {
  commands: CommandHandler;
  now: () => number;
}
