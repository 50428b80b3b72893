import { conflict, validationFailed } from '../errors.js';

/**
 * Which lines of an order are on a live ticket. It lives in the order's own stream, so "a line is on
 * at most one live ticket" and "a billed line no longer changes" are decided against the same state as
 * the lines themselves: two splits of one order at once append with the same expected revision and
 * the second is decided again on the fresh state (its lines are billed: 409).
 *
 * A bill groups the tickets issued together for some lines: one ticket per group of lines, or n
 * tickets sharing the same lines for an even split. The lines are billable again only once every
 * ticket of their bill is cancelled.
 */
export interface Billing {
  /** lineId → the bill it is on. */
  billedLines: Record<string, string>;
  /** billId → every ticket issued for it (in order: part i of n), those still live (not cancelled), its lines. */
  bills: Record<string, Omit<BillEntry, 'billId'> & { live: string[] }>;
}

/**
 * One bill as the order records it. `seat`: on a split by seats, the seat it is for, or null for the
 * table's shared lines (absent on any other bill), so a ticket issued after a crash still says it.
 * `groups`: when an item is split between checks, each ticket's lines in ticket order (a line in several
 * groups is shared by those checks); the lines are billable again once every check is cancelled, as
 * with an even split. Absent: every ticket carries all `lineIds` (whole, or an even split's parts).
 */
export interface BillEntry { billId: string; ticketIds: string[]; lineIds: string[]; seat?: number | null; groups?: string[][] }

export type BillingEvent =
  | { type: 'OrderBilled'; data: BillEntry }
  | { type: 'OrderTicketCancelled'; data: { billId: string; ticketId: string; releasedLineIds: string[] } };

export type BillingCommand =
  /** One bill per group of lines (a split by lines), or one bill of n tickets (an even split): one append. */
  | { type: 'billLines'; bills: BillEntry[] }
  | { type: 'releaseTicket'; ticketId: string };

export const emptyBilling = (): Billing => ({ billedLines: {}, bills: {} });

export const unbilledLineIds = (lineIds: Iterable<string>, billing: Billing): string[] =>
  [...lineIds].filter((id) => !billing.billedLines[id]);

export function decideBilling(command: BillingCommand, billing: Billing, lineIds: ReadonlySet<string>): BillingEvent[] {
  switch (command.type) {
    case 'billLines': {
      const bills = command.bills.filter((b) => !billing.bills[b.billId]);
      if (bills.length < command.bills.length) return [];
      const all = bills.flatMap((b) => b.lineIds);
      if (bills.length === 0 || bills.some((b) => b.lineIds.length === 0)) throw conflict('The order has no unbilled lines');
      const unknown = all.filter((id) => !lineIds.has(id));
      if (unknown.length) throw validationFailed(unknown.map((id) => ({ field: 'groups', message: `${id} is not a line of this order` })));
      const twice = all.filter((id, i) => all.indexOf(id) !== i);
      if (twice.length) throw validationFailed(twice.map((id) => ({ field: 'groups', message: `${id} is in more than one group` })));
      const billed = all.filter((id) => billing.billedLines[id]);
      if (billed.length) throw conflict(`These lines are already on a ticket: ${billed.join(', ')}`, { lineIds: billed });
      bills.forEach(sharedChecks);
      return bills.map(({ billId, ticketIds, lineIds: ids, seat, groups }) => ({
        type: 'OrderBilled', data: { billId, ticketIds, lineIds: ids, ...(seat === undefined ? {} : { seat }), ...(groups ? { groups } : {}) },
      }));
    }
    case 'releaseTicket': {
      const entry = Object.entries(billing.bills).find(([, b]) => b.live.includes(command.ticketId));
      if (!entry) return [];
      const [billId, bill] = entry;
      const last = bill.live.length === 1;
      return [{ type: 'OrderTicketCancelled', data: { billId, ticketId: command.ticketId, releasedLineIds: last ? bill.lineIds : [] } }];
    }
  }
}

/** An item split between checks: one group per check, none empty, a line once per check, every line on a check. */
function sharedChecks(bill: BillEntry): void {
  const groups = bill.groups;
  if (!groups) return;
  if (groups.length !== bill.ticketIds.length || groups.some((g) => g.length === 0)) throw validationFailed([{ field: 'groups', message: 'each check needs at least one line' }]);
  const twice = groups.flatMap((g) => g.filter((id, i) => g.indexOf(id) !== i));
  if (twice.length) throw validationFailed(twice.map((id) => ({ field: 'groups', message: `${id} is twice on one check` })));
  const onChecks = new Set(groups.flat());
  if (onChecks.size !== bill.lineIds.length || bill.lineIds.some((id) => !onChecks.has(id))) throw validationFailed([{ field: 'groups', message: 'the checks must carry exactly the lines billed' }]);
}

export function evolveBilling(billing: Billing, event: BillingEvent): Billing {
  switch (event.type) {
    case 'OrderBilled': {
      const { billId, ticketIds, lineIds, seat, groups } = event.data;
      const billedLines = { ...billing.billedLines };
      for (const id of lineIds) billedLines[id] = billId;
      return { billedLines, bills: { ...billing.bills, [billId]: { ticketIds, live: ticketIds, lineIds, ...(seat === undefined ? {} : { seat }), ...(groups ? { groups } : {}) } } };
    }
    case 'OrderTicketCancelled': {
      const { billId, ticketId, releasedLineIds } = event.data;
      const bill = billing.bills[billId]!;
      const billedLines = { ...billing.billedLines };
      for (const id of releasedLineIds) delete billedLines[id];
      const live = bill.live.filter((id) => id !== ticketId);
      const { [billId]: _done, ...rest } = billing.bills;
      return { billedLines, bills: live.length ? { ...rest, [billId]: { ...bill, live } } : rest };
    }
  }
}

/** Lines on a live ticket keep their price and stay on the order, so the ticket and the order agree. */
export function lineNotBilled(billing: Billing, lineIds: string[]): void {
  const billed = lineIds.filter((id) => billing.billedLines[id]);
  if (billed.length) throw conflict('A line on a ticket cannot change; cancel the ticket first', { lineIds: billed });
}
