import { DomainError, SHIFTS_STREAM, idFromKey, shifts, ticket, ticketStream } from '@comanda/domain';
import type { CommandHandler, Position } from '@comanda/event-store';

export interface ReceivedLightningPayment {
  paymentHash: string;
  amountSat: number;
  /** The invoice's externalId: a ticket id for checkout invoices. */
  externalId: string | null;
  /** When the node received it (ms). */
  timestamp: number;
}

export interface Settlement {
  /** False when this payment hash was already on the ticket (webhook, websocket and timer alike). */
  recorded: boolean;
  position: Position | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The payment's id on the ticket, derived from its hash: the same payment always has the same id. */
export const lightningPaymentId = (paymentHash: string) => idFromKey('lightning-payment', paymentHash);

/**
 * Sats the node received for an invoice whose externalId names a ticket: recorded on the ticket at
 * the invoice's locked rate, exactly once by payment hash (the ticket decider ignores a hash it has
 * recorded), with the rules of ticket-lightning.ts (full, short, over, late, on a settled ticket).
 * Null when the externalId names no ticket: the caller tries an order, then the unmatched list.
 * Called by the wallet bridge (webhook intake, payment consumer, reconciliation).
 */
export async function settleLightningPayment(commands: CommandHandler, payment: ReceivedLightningPayment): Promise<Settlement | null> {
  if (!payment.externalId || !UUID.test(payment.externalId)) return null;
  const stream = ticketStream(payment.externalId.toLowerCase());
  // Payments with no shift open go into the next shift's report, like cards.
  const shiftId = (await commands.state(shifts, SHIFTS_STREAM)).state.open?.shiftId ?? null;
  try {
    const r = await commands.handle(ticket, stream, {
      type: 'settleLightningPayment', paymentId: lightningPaymentId(payment.paymentHash), paymentHash: payment.paymentHash.toLowerCase(),
      amountSat: payment.amountSat, receivedAt: payment.timestamp, shiftId,
    }, { userId: null, correlationId: payment.paymentHash });
    return { recorded: r.events.length > 0, position: r.position };
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return null;
    throw error;
  }
}
