import { CURRENCIES, TICKET_STATUS_NAMES, billedLineCents, notFound } from '@comanda/domain';
import type { Config } from '@comanda/config';
import type { ReadStore } from '@comanda/read-store';
import { Type } from 'typebox';
import { receiptData } from '../bills/receipt.js';
import { ticketFiguresOf, ticketResponse } from '../bills/views.js';
import { GUEST_LINK_GRACE_MS } from './guest-token.js';

const Money = (description?: string) => Type.Number(description ? { description } : {});

/** A bill as the guest holding its link sees it: the restaurant, the lines and the money; no staff, no other ids. */
export const GuestBillSchema = Type.Object({
  restaurant: Type.String(),
  currency: Type.String({ description: 'acronym' }),
  status: Type.Enum(Object.values(TICKET_STATUS_NAMES), { description: 'pending (open), paid or cancelled' }),
  lines: Type.Array(Type.Object({
    id: Type.String({ description: 'the line on this bill (for "my items")' }), name: Type.String(), quantity: Type.Integer(),
    options: Type.Array(Type.String()), discount: Money(), total: Money('what the line costs on this bill, discounts off'),
    share: Type.Union([Type.Object({ part: Type.Integer(), parts: Type.Integer() }), Type.Null()]), voided: Type.Boolean(),
    taken: Type.Union([Type.Literal('paid'), Type.Literal('paying'), Type.Null()], {
      description: 'by a guest\'s "my items": paid, or being paid (an unexpired invoice names it); either way not to be chosen again (409). null: free',
    }),
  })),
  subtotal: Money(), service_charge: Money('0: none'),
  taxes: Type.Array(Type.Object({ name: Type.String(), rate: Type.Number({ description: 'percent' }), amount: Money() })),
  prices_include_tax: Type.Boolean(),
  tip: Money('tips paid so far'), total: Money(), paid: Money(), remaining: Money(),
  payments: Type.Array(Type.Object({ method: Type.String(), amount: Money(), tip: Money(), at: Type.String({ format: 'date-time' }) })),
  link_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while the bill is open; then its paid or cancelled time plus the grace' }),
});

/**
 * The guest's view of a ticket, or 404 when the ticket is unknown or its link has run out; `claims`: the lines
 * guests' "my items" invoices hold (`lineClaims` of the ticket's stream).
 */
export async function guestBill(
  readStore: ReadStore, config: Pick<Config, 'restaurantName' | 'receiptFooter' | 'timezone'>, ticketId: string, now: number, claims: Record<string, 'paid' | 'paying'> = {},
) {
  const d = await receiptData(readStore, config, ticketId);
  const t = ticketResponse(d.ticket);
  const closedAt = d.ticket.paid_at ?? d.ticket.cancelled_at;
  const expires = closedAt === null ? null : closedAt + GUEST_LINK_GRACE_MS;
  if (expires !== null && now >= expires) throw notFound();
  const currency = Object.values(CURRENCIES).find((c) => c.id === t.currency_id)?.acronym ?? t.currency_id;
  const serviceCharge = t.service_charge?.amount ?? 0;
  const bill = {
    restaurant: d.restaurant, currency, status: t.status_name,
    lines: t.lines.map((l) => ({
      id: l.id, name: d.dishNames[l.dish_id] ?? 'Dish', quantity: l.quantity, options: l.modifiers.map((m) => m.name),
      discount: l.discount, total: l.line_total, share: l.share, voided: l.voided, taken: claims[l.id] ?? null,
    })),
    subtotal: t.subtotal, service_charge: serviceCharge,
    taxes: t.taxes.map((x) => ({ name: x.name, rate: x.rate, amount: x.amount })), prices_include_tax: d.ticket.prices_include_tax !== false,
    tip: t.tip, total: t.total, paid: t.paid, remaining: t.due,
    payments: t.payments.map((p) => ({ method: p.method, amount: p.amount, tip: p.tip, at: p.taken_at })),
    link_expires_at: expires === null ? null : new Date(expires).toISOString(),
  };
  const voided = new Set(d.ticket.voided.map((v) => v.line_id));
  const lines = d.ticket.lines.map((l) => ({ id: l.lineId, cents: billedLineCents(l), voided: voided.has(l.lineId) }));
  return { bill, subtotalCents: d.ticket.subtotal_cents, dueCents: ticketFiguresOf(d.ticket).due, lines };
}
