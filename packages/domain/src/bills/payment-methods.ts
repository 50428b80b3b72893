/**
 * How each way of paying behaves. This table is the extension point for new methods: a method names
 * whether it goes into the cash drawer (so needs an open shift to be counted), whether an amount over
 * what is due becomes change, and the shape of its own details, recorded with the payment.
 *
 * Lightning (issue 13) fits as one more row and one more `PaymentDetails` variant: it is recorded in
 * fiat cents at the rate locked in the invoice, with `{sats, rate, paymentHash}` as its details. Money
 * that has already arrived is a fact, not a request: it is recorded with the ticket decider's
 * `recordReceivedPayment` (never refused: an over-payment is kept as `overpaid`, a late one on a paid or
 * cancelled ticket is kept for a refund), while the cashier's `takePayment` may refuse.
 */
export const PAYMENT_METHODS = {
  cash: { name: 'Cash', drawer: true, changeGiven: true },
  credit_card: { name: 'Credit card', drawer: false, changeGiven: false },
  debit_card: { name: 'Debit card', drawer: false, changeGiven: false },
  lightning: { name: 'Lightning', drawer: false, changeGiven: false },
} as const satisfies Record<string, { name: string; drawer: boolean; changeGiven: boolean }>;

export type PaymentMethod = keyof typeof PAYMENT_METHODS;

/** The methods a cashier takes at the till today; lightning payments arrive through the wallet. */
export const TILL_METHODS = ['cash', 'credit_card', 'debit_card'] as const satisfies readonly PaymentMethod[];
export type TillMethod = (typeof TILL_METHODS)[number];

/** What a method records beside the fiat amount. */
export type PaymentDetails =
  | { method: 'cash'; tenderedCents: number; changeCents: number }
  | { method: 'credit_card' | 'debit_card' }
  | { method: 'lightning'; sats: number; rate: string; paymentHash: string; flag?: import('./ticket-lightning.js').LightningFlag; byGuest?: boolean };
