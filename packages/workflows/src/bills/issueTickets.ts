import {
  CURRENCY_STREAM, baseCurrency, conflict, idFromKey, linesTotal, newId, notFound, order, orderStream, splitEvenly, ticket, ticketStream,
  validationFailed, type Order, type TicketIssue,
} from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';

export type Split = { split: 'none' } | { split: 'even'; parts: number } | { split: 'lines'; groups: string[][] };

export interface BillDeps { commands: CommandHandler; now: () => number }

type Bill = { billId: string; ticketIds: string[]; lineIds: string[] };

/** Ids for the new bills and tickets: derived from the Idempotency-Key, so a retry meets its own streams. */
const ids = (context: CommandContext) => {
  let n = 0;
  return (kind: string) => (context.idempotency ? idFromKey(kind, context.idempotency.key, String(n++)) : newId());
};

function plan(o: Order, split: Split, id: (kind: string) => string): Bill[] {
  const unbilled = Object.keys(o.lines).filter((l) => !o.billing.billedLines[l]);
  switch (split.split) {
    case 'none':
      return [{ billId: id('bill'), ticketIds: [id('ticket')], lineIds: unbilled }];
    case 'even': {
      const total = linesTotal(unbilled.map((l) => o.lines[l]!));
      if (unbilled.length && split.parts > total) throw validationFailed([{ field: 'parts', message: `must be at most the amount in cents (${total})` }]);
      const billId = id('bill');
      return [{ billId, ticketIds: Array.from({ length: split.parts }, () => id('ticket')), lineIds: unbilled }];
    }
    case 'lines':
      return split.groups.map((lineIds) => ({ billId: id('bill'), ticketIds: [id('ticket')], lineIds }));
  }
}

/** The tickets of one bill, from the order as billed: the lines whole, or each ticket's share of them. */
export function ticketsOf(o: Order, bill: Bill, meta: { currencyId: string; at: number; by: string | null }): TicketIssue[] {
  const lines = bill.lineIds.map((l) => ({ ...o.lines[l]! }));
  const amount = linesTotal(lines);
  const parts = bill.ticketIds.length;
  const shares = splitEvenly(amount, parts);
  return bill.ticketIds.map((ticketId, i) => ({
    ticketId, orderId: o.orderId!, billId: bill.billId, tableId: o.tableId, waiter: o.waiter, currencyId: meta.currencyId,
    lines, share: parts > 1 ? { part: i + 1, parts } : null, subtotalCents: shares[i]!, issuedAt: meta.at, issuedBy: meta.by,
  }));
}

/**
 * Issues the tickets for an order's unbilled lines. The order's stream is written first (it decides
 * which lines are free, so of two splits at once one wins), then each ticket's own stream. Anything a
 * crash left between the two is completed first: bills without their ticket streams are issued, and
 * tickets cancelled without their lines released are released.
 */
export async function issueTickets(deps: BillDeps, orderId: string, split: Split, context: CommandContext): Promise<{ ticketIds: string[]; position: Position | null }> {
  let position = await settleBilling(deps, orderId, { ...context, idempotency: undefined });
  const { state: o } = await deps.commands.state(order, orderStream(orderId));
  if (!o.orderId || o.deleted) throw notFound();
  const { state: currency } = await deps.commands.state(baseCurrency, CURRENCY_STREAM);
  const bills = plan(o, split, ids(context));
  const billed = await deps.commands.handle(order, orderStream(orderId), { type: 'billLines', bills }, context);
  // On a replay the bills are the ones the first request recorded: its events say which.
  const recorded = billed.events.flatMap((e) => (e.type === 'OrderBilled' ? [e.data] : []));
  if (recorded.length === 0) throw conflict('The order has no unbilled lines');
  const meta = { currencyId: currency.currencyId, at: deps.now(), by: context.userId ?? null };
  const ticketIds: string[] = [];
  for (const bill of recorded) {
    for (const issue of ticketsOf(billed.state, bill, meta)) {
      const r = await deps.commands.handle(ticket, ticketStream(issue.ticketId), { type: 'issueTicket', issue }, context);
      position = later(position, billed.position, r.position);
      ticketIds.push(issue.ticketId);
    }
  }
  return { ticketIds, position };
}

/** Completes what a crash may have left between an order's stream and its tickets' streams. */
export async function settleBilling(deps: BillDeps, orderId: string, context: CommandContext): Promise<Position | null> {
  const { state: o } = await deps.commands.state(order, orderStream(orderId));
  let position: Position | null = null;
  for (const [billId, bill] of Object.entries(o.billing.bills)) {
    for (const ticketId of bill.live) {
      const { state: t } = await deps.commands.state(ticket, ticketStream(ticketId));
      if (!t.issue) {
        const { state: currency } = await deps.commands.state(baseCurrency, CURRENCY_STREAM);
        const issue = ticketsOf(o, { billId, ticketIds: bill.ticketIds, lineIds: bill.lineIds }, { currencyId: currency.currencyId, at: deps.now(), by: null }).find((i) => i.ticketId === ticketId)!;
        position = later(position, (await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'issueTicket', issue }, context)).position);
      } else if (t.status === 3) {
        position = later(position, (await deps.commands.handle(order, orderStream(orderId), { type: 'releaseTicket', ticketId }, context)).position);
      }
    }
  }
  return position;
}
