import {
  CURRENCY_STREAM, MENU_STREAM, baseCurrency, billTaxes, conflict, forbidden, idFromKey, lineDiscounts, linesBySeat, linesTotal, may, menu, newId, notFound, order, orderStream, partySize,
  serviceChargeFor, taxRateOf, ticket, ticketStream, validationFailed, type BillEntry, type Menu, type Order, type Role, type ServiceChargeSettings, type TicketIssue, type TicketLine,
} from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';

export type Split = { split: 'none' } | { split: 'even'; parts: number } | { split: 'lines'; groups: string[][] } | { split: 'seats' };

/** `pricesIncludeTax` and `serviceCharge`: the settings in force when the bill is issued (absent: true, none). */
export interface BillDeps { commands: CommandHandler; now: () => number; pricesIncludeTax?: boolean; serviceCharge?: ServiceChargeSettings }

/** A service charge staff set by hand on the bills they issue (basis points; 0 waives the automatic one), and their role. */
export interface ServiceChargeByHand { rateBp: number; role: Role }

/** What a ticket is issued with besides the order: when, by whom, in which currency, at which tax rates and service charge. */
interface IssueMeta {
  currencyId: string; at: number; by: string | null; menu: Menu; pricesIncludeTax: boolean;
  serviceCharge: ServiceChargeSettings | null; byHand: { rateBp: number; by: string | null } | null;
}

type Bill = BillEntry;

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
      const discounts = lineDiscounts(o.lines, o.discounts);
      const total = linesTotal(unbilled.map((l) => o.lines[l]!)) - unbilled.reduce((sum, l) => sum + (discounts.get(l) ?? 0), 0);
      if (unbilled.length && split.parts > total) throw validationFailed([{ field: 'parts', message: `must be at most the amount in cents (${total})` }]);
      const billId = id('bill');
      return [{ billId, ticketIds: Array.from({ length: split.parts }, () => id('ticket')), lineIds: unbilled }];
    }
    case 'lines': {
      // A line on several checks (a bottle of wine over three) makes the checks one bill that shares it.
      const all = split.groups.flat();
      const shared = split.groups.length > 1 && split.groups.some((g, i) => g.some((l) => split.groups.some((h, j) => j !== i && h.includes(l))));
      if (!shared) return split.groups.map((lineIds) => ({ billId: id('bill'), ticketIds: [id('ticket')], lineIds }));
      return [{ billId: id('bill'), ticketIds: split.groups.map(() => id('ticket')), lineIds: [...new Set(all)], groups: split.groups }];
    }
    case 'seats': {
      // Each bill remembers its seat (null: the table's shared lines) so its ticket and receipt can say it.
      const groups = linesBySeat(unbilled.map((l) => o.lines[l]!));
      return (groups.length ? groups : [[]]).map((lineIds) => ({ billId: id('bill'), ticketIds: [id('ticket')], lineIds, seat: lineIds.length ? o.lines[lineIds[0]!]!.seat : null }));
    }
  }
}

/**
 * The tickets of one bill, from the order as billed: the lines whole, or each ticket's share of them.
 * Each line is billed at its dish's tax rate now (the dish's own, else its category's); the rates are
 * copied onto the ticket, and what it asks is `billTaxes`' due (with no rates: the lines' sum, or the
 * ticket's even share of it, as always).
 */
export function ticketsOf(o: Order, bill: Bill, meta: IssueMeta): TicketIssue[] {
  const discounts = lineDiscounts(o.lines, o.discounts);
  const lines: TicketLine[] = bill.lineIds.map((l) => ({
    ...o.lines[l]!, taxRateId: taxRateOf(meta.menu, o.lines[l]!.dishId)?.id ?? null, ...(discounts.get(l) ? { discountCents: discounts.get(l)! } : {}),
  }));
  if (bill.groups) return sharedChecks(o, bill, bill.groups, lines, meta);
  const parts = bill.ticketIds.length;
  return bill.ticketIds.map((ticketId, i) => issueOf(o, bill, ticketId, lines, parts > 1 ? { part: i + 1, parts } : null, meta));
}

/** One ticket of a bill: its lines, taxed at the rates they use, and the service charge on them (every part of an even split carries the whole's). */
function issueOf(o: Order, bill: Bill, ticketId: string, lines: TicketLine[], share: TicketIssue['share'], meta: IssueMeta): TicketIssue {
  const used = new Set(lines.map((l) => l.taxRateId));
  const taxRates = Object.values(meta.menu.taxRates).filter((r) => used.has(r.id)).map((r) => ({ taxRateId: r.id, name: r.name, ratePpm: r.ratePpm }));
  const taxed = taxRates.length ? { taxRates, pricesIncludeTax: meta.pricesIncludeTax } : {};
  // Worked out on this bill's lines after discounts, for the whole order's party.
  const serviceCharge = serviceChargeFor(lines, partySize(Object.values(o.lines)), meta.serviceCharge, meta.byHand, o.userId);
  const charged = serviceCharge ? { serviceCharge } : {};
  return {
    ticketId, orderId: o.orderId!, billId: bill.billId, tableId: o.tableId, waiter: o.waiter, ...(o.number === null ? {} : { orderNumber: o.number }), currencyId: meta.currencyId,
    lines, share, subtotalCents: billTaxes({ lines, share, ...taxed, ...charged }).dueCents, ...taxed, ...charged, issuedAt: meta.at, issuedBy: meta.by,
    ...(bill.seat === undefined ? {} : { forSeat: bill.seat }),
  };
}

/**
 * The checks of a bill that splits items between them: each carries its own lines whole and its even
 * share of each line it shares (part k of n in check order), and is taxed and charged as a bill of its
 * own: each check's tax is rounded once on what it asks, as a bill's is, and the shares add up to the item.
 */
function sharedChecks(o: Order, bill: Bill, groups: string[][], lines: TicketLine[], meta: IssueMeta): TicketIssue[] {
  const byId = new Map(lines.map((l) => [l.lineId, l]));
  return bill.ticketIds.map((ticketId, i) => {
    const mine = groups[i]!.map((lineId) => {
      const on = groups.flatMap((g, j) => (g.includes(lineId) ? [j] : []));
      return on.length > 1 ? { ...byId.get(lineId)!, share: { part: on.indexOf(i) + 1, parts: on.length } } : byId.get(lineId)!;
    });
    return issueOf(o, bill, ticketId, mine, null, meta);
  });
}

const issueMeta = async (deps: BillDeps, at: number, by: string | null, byHand: ServiceChargeByHand | null = null): Promise<IssueMeta> => ({
  currencyId: (await deps.commands.state(baseCurrency, CURRENCY_STREAM)).state.currencyId, at, by,
  menu: (await deps.commands.state(menu, MENU_STREAM)).state, pricesIncludeTax: deps.pricesIncludeTax ?? true,
  serviceCharge: deps.serviceCharge ?? null, byHand: byHand && { rateBp: byHand.rateBp, by },
});

/**
 * Anyone who issues bills may set a service charge by hand; lowering or waiving the one a party would
 * get automatically is a manager's (403), as taking it off an issued bill is.
 */
function mayChargeByHand(o: Order, settings: ServiceChargeSettings | undefined, byHand: ServiceChargeByHand): void {
  const automatic = settings && partySize(Object.values(o.lines)) >= settings.minParty ? settings.rateBp : 0;
  if (byHand.rateBp < automatic && !may(byHand.role, 'bills:service-charge')) {
    throw forbidden(`Only a manager lowers or waives the service charge of a party this size (${automatic / 100} %)`);
  }
}

/**
 * Issues the tickets for an order's unbilled lines. The order's stream is written first (it decides
 * which lines are free, so of two splits at once one wins), then each ticket's own stream. Anything a
 * crash left between the two is completed first: bills without their ticket streams are issued, and
 * tickets cancelled without their lines released are released.
 */
export async function issueTickets(
  deps: BillDeps, orderId: string, split: Split, context: CommandContext, byHand: ServiceChargeByHand | null = null,
): Promise<{ ticketIds: string[]; position: Position | null }> {
  let position = await settleBilling(deps, orderId, { ...context, idempotency: undefined });
  const { state: o } = await deps.commands.state(order, orderStream(orderId));
  if (!o.orderId || o.deleted) throw notFound();
  if (byHand) mayChargeByHand(o, deps.serviceCharge, byHand);
  const bills = plan(o, split, ids(context));
  const billed = await deps.commands.handle(order, orderStream(orderId), { type: 'billLines', bills }, context);
  // On a replay the bills are the ones the first request recorded: its events say which.
  const recorded = billed.events.flatMap((e) => (e.type === 'OrderBilled' ? [e.data] : []));
  if (recorded.length === 0) throw conflict('The order has no unbilled lines');
  const meta = await issueMeta(deps, deps.now(), context.userId ?? null, byHand);
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
        const meta = await issueMeta(deps, deps.now(), null);
        const issue = ticketsOf(o, { billId, ...bill }, meta).find((i) => i.ticketId === ticketId)!;
        position = later(position, (await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'issueTicket', issue }, context)).position);
      } else if (t.status === 3) {
        position = later(position, (await deps.commands.handle(order, orderStream(orderId), { type: 'releaseTicket', ticketId }, context)).position);
      }
    }
  }
  return position;
}
