import { chainByName, type Bolt11Invoice, type Bolt12Offer } from '@comanda/lightning';
import { shift } from './channel.js';
import { lightningFeeMsat, msatToSat } from './fees.js';
import { payerKey } from './keys.js';
import type { SimNode } from './node.js';
import type { IncomingPayment, PaymentResult } from './records.js';

// Lightning payments between simulated nodes. Each function runs synchronously from the first check
// to the last balance change: JavaScript runs it whole, so two concurrent payments of one invoice can
// never both pass the checks (the payee's record is completed before anything else runs).

/** Failure texts of the real node (lightning-kmp FinalFailure and route failures). */
export const REASON = {
  alreadyPaid: 'this invoice has already been paid',
  invalidAmount: 'payment amount must be positive',
  insufficientBalance: 'not enough funds in wallet to afford payment',
  unreachable: 'recipient node is offline or unreachable',
  rejected: 'recipient node rejected the payment',
} as const;

export function payInvoice(payer: SimNode, invoice: Bolt11Invoice, amountMsat: number): PaymentResult {
  const paymentHash = invoice.paymentHash;
  if (amountMsat <= 0) return { ok: false, paymentHash, reason: REASON.invalidAmount };
  if (payer.hasPaid(paymentHash)) return { ok: false, paymentHash, reason: REASON.alreadyPaid };
  const payee = invoice.chain === payer.ctx.chainName ? payer.ctx.nodeById(invoice.payeeNodeId) : undefined;
  return send(payer, { paymentHash, invoice: invoice.paymentRequest }, amountMsat, payee, (to) =>
    to.acceptInvoicePayment(paymentHash, amountMsat, invoice.paymentSecret),
  );
}

export function payOffer(payer: SimNode, offer: Bolt12Offer, amountMsat: number, message: string | undefined): PaymentResult {
  if (amountMsat <= 0) return { ok: false, reason: REASON.invalidAmount };
  const offerChains = offer.chainHashes ?? [chainByName('mainnet')?.chainHash];
  const onOurChain = offerChains.includes(chainByName(payer.ctx.chainName)?.chainHash);
  const payee = onOurChain && offer.issuerId !== undefined ? payer.ctx.nodeById(offer.issuerId) : undefined;
  if (!payee || payee === payer) return { ok: false, reason: REASON.unreachable };
  // The payee answers the invoice request with a fresh payment hash.
  const incoming = payee.acceptOfferPayment(offer, amountMsat, payerKey(payer.state.privateKey, offer.offer), message);
  if (!incoming) return { ok: false, reason: REASON.rejected };
  return send(payer, { paymentHash: incoming.paymentHash }, amountMsat, payee, () => incoming);
}

function send(
  payer: SimNode,
  target: { paymentHash: string; invoice?: string },
  amountMsat: number,
  payee: SimNode | undefined,
  accept: (payee: SimNode) => IncomingPayment | undefined,
): PaymentResult {
  const feesMsat = lightningFeeMsat(amountMsat);
  const base = { subType: 'lightning' as const, ...target, recipientMsat: amountMsat, feesMsat, balanceDeltaMsat: 0, feeCreditDeltaMsat: 0 };
  const failed = (reason: string): PaymentResult => {
    payer.recordOutgoing({ ...base, status: 'failed', failure: reason, completedAt: payer.ctx.clock.now() });
    return { ok: false, paymentHash: target.paymentHash, reason };
  };
  if (payer.spendableMsat() < amountMsat + feesMsat) return failed(REASON.insufficientBalance);
  if (!payee || payee === payer) return failed(REASON.unreachable);
  const reached = accept(payee);
  if (!reached) return failed(REASON.rejected);
  // A positive spendable balance implies a Normal channel.
  payer.state.channel = shift(payer.state.channel!, -(amountMsat + feesMsat));
  const record = payer.recordOutgoing({
    ...base,
    status: 'succeeded',
    preimage: reached.preimage,
    balanceDeltaMsat: -(amountMsat + feesMsat),
    completedAt: payer.ctx.clock.now(),
  });
  payee.settle(reached, amountMsat);
  return {
    ok: true,
    recipientAmountSat: msatToSat(amountMsat),
    routingFeeSat: msatToSat(feesMsat),
    paymentId: record.paymentId,
    paymentHash: target.paymentHash,
    paymentPreimage: reached.preimage,
  };
}
