import {
  CURRENCIES, claimedLine, conflict, liveInvoice, payable, satsForCents, ticket, ticketFigures, ticketStream, live, type LightningInvoice,
} from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import type { CheckoutDeps, CheckoutNode, RateLookup } from './ports.js';

export interface CheckoutSettings {
  /** Life of the invoice and of its locked rate (COMANDA_CHECKOUT_EXPIRY_S). */
  expiryS: number;
  /** What sats beyond the invoice become (COMANDA_LIGHTNING_EXCESS). */
  excess: 'tip' | 'refund';
}

/** The tip on top, and the part of the due this invoice is for (a guest paying a share); default all of it. */
export interface CheckoutAsk {
  tipCents: number;
  amountCents?: number;
  /** A guest's "my items": the lines this invoice pays, refused when another guest's claims one (issue 63). */
  lineIds?: string[];
  /** Asked through the bill's guest link: its payment is recorded as a guest's. */
  byGuest?: boolean;
}

export interface Checkout {
  invoice: LightningInvoice;
  currency: string;
  /** Where the invoice was recorded; null when an existing one was handed out again. */
  position: Position | null;
}

/** Thrown when the bill would be worth a sat or less: a rate that says so is not believed. */
export class ImplausibleRate extends Error {
  override readonly name = 'ImplausibleRate';
}

// One checkout at a time per ticket in this process: two taps on "pay by Lightning" share one
// invoice instead of making two at the node (across replicas the ticket's stream still keeps one).
const inFlight = new Map<string, Promise<Checkout>>();

/**
 * Prices a ticket's due, or part of it (plus a tip), in sats at a fresh rate, rounded up to the sat, and makes the
 * invoice at the node with the ticket id as externalId; the rate is locked in the ticket's stream
 * with the invoice. Asked again while that invoice is unexpired and unpaid, for the same due and tip,
 * it answers the same invoice; after expiry, a new one at the new rate.
 */
export function checkoutTicket(
  deps: CheckoutDeps & { rates: RateLookup; node: CheckoutNode; settings: CheckoutSettings },
  ticketId: string, ask: CheckoutAsk, context: CommandContext,
): Promise<Checkout> {
  const key = `${ticketId}:${ask.tipCents}:${ask.amountCents ?? 'due'}:${ask.lineIds?.join(',') ?? ''}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = checkout(deps, ticketId, ask, context).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function checkout(
  deps: CheckoutDeps & { rates: RateLookup; node: CheckoutNode; settings: CheckoutSettings },
  ticketId: string, { tipCents, amountCents, lineIds, byGuest }: CheckoutAsk, context: CommandContext,
): Promise<Checkout> {
  const stream = ticketStream(ticketId);
  const t = live((await deps.commands.state(ticket, stream)).state);
  payable(t);
  const currency = Object.values(CURRENCIES).find((c) => c.id === t.issue.currencyId)?.acronym ?? t.issue.currencyId;
  const figures = ticketFigures(t);
  if (figures.due <= 0) throw conflict('Nothing is due on this ticket');
  if (amountCents !== undefined && amountCents > figures.due) {
    throw conflict(`The amount exceeds the amount due (${(figures.due / 100).toFixed(2)})`, { due: figures.due / 100 });
  }
  const due = amountCents ?? figures.due;
  if (lineIds && claimedLine(t.lightning, lineIds, deps.now())) throw conflict('Some of these items are already paid, or being paid by another guest');
  const existing = lineIds ? null : liveInvoice(t.lightning, due, tipCents, deps.now());
  if (existing) return { invoice: existing, currency, position: null };

  const quote = await deps.rates.rate(currency);
  const amountSat = satsForCents(due + tipCents, quote.rate);
  if (amountSat <= 1) throw new ImplausibleRate(`${due + tipCents} cents would be ${amountSat} sat at ${quote.rate} ${currency}/BTC`);
  const { expiryS, excess } = deps.settings;
  const made = await deps.node.createInvoice({
    description: `${byGuest ? 'Guest share of ticket' : 'Ticket'} ${ticketId.slice(0, 8)}`, amountSat, expirySeconds: expiryS, externalId: ticketId,
  });
  const createdAt = deps.now();
  const invoice: LightningInvoice = {
    paymentHash: made.paymentHash.toLowerCase(), invoice: made.serialized, amountSat, billCents: due, tipCents,
    rate: quote.rate, rateSource: quote.source, rateAt: quote.at, createdAt, expiresAt: createdAt + expiryS * 1000, excess,
    ...(lineIds ? { lineIds } : {}), ...(byGuest ? { byGuest: true } : {}),
  };
  const r = await deps.commands.handle(ticket, stream, { type: 'recordLightningInvoice', invoice, at: createdAt }, { ...context, idempotency: undefined });
  if (r.events.length > 0) return { invoice, currency, position: r.position };
  // Another replica recorded a live invoice for the same bill first: that one is the ticket's.
  const winner = liveInvoice(r.state.lightning, due, tipCents, createdAt) ?? r.state.lightning.invoices[invoice.paymentHash];
  if (!winner) throw conflict('The ticket changed while its invoice was being made; try again');
  return { invoice: winner, currency, position: r.position };
}
