/** The subject a received payment is published on; the payment hash is its de-duplication id. */
export const PAYMENT_RECEIVED = 'pos.wallet.payment_received';

/** The node's webhook body (seed 001, Events; explicit nulls kept). */
export interface PaymentReceived {
  type: 'payment_received';
  timestamp: number;
  amountSat: number;
  paymentHash: string;
  externalId: string | null;
  payerNote: string | null;
  payerKey: string | null;
}

const optionalText = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** The webhook body, checked field by field; null when it is not a payment_received we understand. */
export function parsePaymentReceived(body: unknown): PaymentReceived | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  if (b.type !== 'payment_received') return null;
  if (typeof b.paymentHash !== 'string' || !/^[0-9a-f]{64}$/i.test(b.paymentHash)) return null;
  if (!Number.isSafeInteger(b.amountSat) || (b.amountSat as number) < 0) return null;
  if (!Number.isSafeInteger(b.timestamp)) return null;
  if (!optionalText(b.externalId) || !optionalText(b.payerNote) || !optionalText(b.payerKey)) return null;
  return {
    type: 'payment_received',
    timestamp: b.timestamp as number,
    amountSat: b.amountSat as number,
    paymentHash: b.paymentHash.toLowerCase(),
    externalId: (b.externalId as string | null | undefined) ?? null,
    payerNote: (b.payerNote as string | null | undefined) ?? null,
    payerKey: (b.payerKey as string | null | undefined) ?? null,
  };
}
