import type { IncomingPayment, OutgoingPayment } from '@comanda/lightning';

/**
 * The seed's incoming record. Status: RECEIVED (paid; the seed's value), EXPIRED (unpaid and past its
 * expiry) and PENDING (unpaid, still payable); the last two only appear with all=true.
 */
export function incomingView(p: IncomingPayment) {
  const status = p.isPaid ? 'RECEIVED' : p.isExpired ? 'EXPIRED' : 'PENDING';
  return {
    paymentHash: p.paymentHash,
    amountSat: p.requestedSat ?? p.receivedSat,
    receivedSat: p.receivedSat,
    description: p.description ?? '',
    externalId: p.externalId ?? null,
    createdAt: p.createdAt,
    completedAt: p.completedAt ?? null,
    status,
  };
}

/** Fees in outgoing records are msat (reference); rounded up so a fee is never understated. */
export const feesSat = (p: Pick<OutgoingPayment, 'fees'>) => Math.ceil((p.fees ?? 0) / 1000);

/**
 * Outgoing record (the seed does not show one): amounts in sat. Status SENT (paid), FAILED (finished
 * without paying), PENDING (in flight). `amountSat` is what reached the recipient, `feesSat` the rest.
 */
export function outgoingView(p: OutgoingPayment) {
  const fees = feesSat(p);
  return {
    paymentId: p.paymentId,
    kind: p.subType ?? 'lightning',
    paymentHash: p.paymentHash ?? null,
    txId: p.txId ?? null,
    amountSat: Math.max(0, p.sent - fees),
    feesSat: fees,
    invoice: p.invoice ?? null,
    createdAt: p.createdAt,
    completedAt: p.completedAt ?? null,
    status: p.isPaid ? 'SENT' : p.completedAt ? 'FAILED' : 'PENDING',
  };
}
