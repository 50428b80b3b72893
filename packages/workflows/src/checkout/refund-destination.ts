import { conflict, validationFailed } from '@comanda/domain';
import { decodeBolt11, invoiceExpiresAtMs, parseLightningAddress, type Bolt11Invoice } from '@comanda/lightning';

/** The invoice a refund pays: given by the customer, or fetched from their Lightning address. */
export interface RefundTarget {
  invoice: string;
  paymentHash: string;
  /** True when the invoice names no amount: the node is told how many sats. */
  amountless: boolean;
}

const TIMEOUT_MS = 10_000;

async function getJson(url: URL): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    body = await res.json();
  } catch (error) {
    throw conflict(`The Lightning address could not be reached (${url.host}): ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null) throw conflict(`The Lightning address service ${url.host} sent an invalid answer`);
  const b = body as Record<string, unknown>;
  if (typeof b.status === 'string' && b.status.toUpperCase() === 'ERROR') throw conflict(`The Lightning address service refused: ${String(b.reason ?? 'no reason given')}`);
  return b;
}

function decoded(invoice: string): Bolt11Invoice {
  try {
    return decodeBolt11(invoice);
  } catch {
    throw validationFailed([{ field: 'destination', message: 'must be a BOLT11 invoice or a Lightning address (user@domain)' }]);
  }
}

/**
 * Resolves where a refund goes to one BOLT11 invoice BEFORE anything is recorded, so the refund's
 * payment hash is known beforehand and a retry can ask the node what became of it (outgoingbyhash)
 * instead of paying again. A Lightning address is resolved by LUD-16 (its pay request, then its
 * callback for exactly `sats`); an invoice must ask for exactly `sats`, or for no amount.
 */
export async function resolveRefundTarget(destination: string, sats: number, now: number): Promise<RefundTarget> {
  const text = destination.trim().replace(/^lightning:/i, '');
  if (text.includes('@')) {
    let address;
    try {
      address = parseLightningAddress(text);
    } catch {
      throw validationFailed([{ field: 'destination', message: 'must be a BOLT11 invoice or a Lightning address (user@domain)' }]);
    }
    const request = await getJson(address.url);
    const min = Number(request.minSendable);
    const max = Number(request.maxSendable);
    if (request.tag !== 'payRequest' || typeof request.callback !== 'string') throw conflict('The Lightning address does not take payments');
    if (sats * 1000 < min || sats * 1000 > max) throw conflict(`The Lightning address takes ${Math.ceil(min / 1000)} to ${Math.floor(max / 1000)} sat; this refund is ${sats} sat`);
    let callback: URL;
    try {
      callback = new URL(request.callback);
    } catch {
      throw conflict('The Lightning address sent an invalid callback');
    }
    callback.searchParams.set('amount', String(sats * 1000));
    const answer = await getJson(callback);
    if (typeof answer.pr !== 'string') throw conflict('The Lightning address sent no invoice');
    const inv = decoded(answer.pr);
    if (inv.amountMsat !== sats * 1000) throw conflict('The Lightning address sent an invoice for another amount');
    return { invoice: answer.pr, paymentHash: inv.paymentHash, amountless: false };
  }
  const inv = decoded(text);
  if (invoiceExpiresAtMs(inv) <= now) throw conflict('The invoice has expired; ask the customer for a new one');
  if (inv.amountMsat !== undefined && inv.amountMsat !== sats * 1000) {
    throw conflict(`The invoice asks for ${inv.amountMsat / 1000} sat; this refund is ${sats} sat`, { sats });
  }
  return { invoice: text, paymentHash: inv.paymentHash, amountless: inv.amountMsat === undefined };
}
