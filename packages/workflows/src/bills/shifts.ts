import { SHIFTS_STREAM, billTaxes, lineTotal, noOpenShift, paymentTaxes, shifts, zReport, type CountedPayment, type CountedRefund, type OpenShift, type Shifts, type ZReport } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import { ORDERS, TICKETS, type OrderView, type TicketView } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { BillDeps } from './issueTickets.js';

export interface ShiftDeps extends BillDeps { readStore: ReadStore }

export async function openShift(deps: ShiftDeps, shiftId: string, cashFloatCents: number, context: CommandContext) {
  const r = await deps.commands.handle(shifts, SHIFTS_STREAM, { type: 'openShift', shiftId, cashFloatCents, at: deps.now(), by: context.userId ?? null }, context);
  return { shift: r.state.open!, position: r.position, replayed: r.replayed };
}

/** How far before the last close a payment taken with no shift open is still looked for (clock skew, slow appends). */
const GRACE_MS = 5 * 60_000;

/**
 * The figures of the open shift up to `until`: its payments and refunds; those taken with no shift open
 * since the previous shift closed; and those of the previous shift that landed after its report was
 * computed (a cash payment racing the close). What a report counted is recorded in it, so nothing is
 * counted twice. Read from the tickets read model, which includes every acknowledged payment.
 */
export async function shiftReport(deps: ShiftDeps, state: Shifts & { open: OpenShift }, until: number, countedCashCents: number, only?: { takenBy: string }): Promise<ZReport> {
  const shift = state.open;
  const previous = state.lastClosed;
  const seen = new Set([...(previous?.paymentIds ?? []), ...(previous?.refundIds ?? [])]);
  const mine = (id: string, s: string | null, at: number) =>
    s === shift.shiftId
    || (!seen.has(id) && ((s === null && at > state.lastClosedAt - GRACE_MS && at <= until) || (previous !== null && s === previous.shiftId)));
  const shiftIds = [shift.shiftId, null, ...(previous ? [previous.shiftId] : [])];
  const touched = await deps.readStore.collection<TicketView>(TICKETS).find({
    $or: [{ 'payments.shift_id': { $in: shiftIds } }, { 'refunds.shift_id': { $in: shiftIds } }],
  });
  const payments: CountedPayment[] = [];
  const refunds: CountedRefund[] = [];
  for (const t of touched) {
    const { taxes } = billTaxes({ lines: t.lines, share: t.share, taxRates: t.tax_rates ?? [], pricesIncludeTax: t.prices_include_tax ?? true }, new Set(t.voided.map((v) => v.line_id)));
    let covered = 0;
    for (const p of t.payments) {
      const inPayment = paymentTaxes(taxes, t.subtotal_cents, covered, p.amount_cents);
      covered += p.amount_cents;
      if (mine(p.id, p.shift_id, p.taken_at) && (only === undefined || p.taken_by === only.takenBy)) {
        payments.push({ id: p.id, method: p.method, amountCents: p.amount_cents, tipCents: p.tip_cents, overpaidCents: p.overpaid_cents, waiter: t.waiter, taxes: inPayment });
      }
    }
    for (const r of t.refunds) if (mine(r.id, r.shift_id, r.at) && (only === undefined || r.by === only.takenBy)) refunds.push({ id: r.id, method: r.method, amountCents: r.amount_cents });
  }
  return zReport({ cashFloatCents: shift.cashFloatCents, countedCashCents, openCents: await openAmount(deps.readStore, shift.openedAt, until), payments, refunds });
}

/** Still unpaid: what is due on pending tickets, and the unbilled lines of orders completed in the shift. */
async function openAmount(readStore: ReadStore, from: number, until: number): Promise<number> {
  const tickets = readStore.collection<TicketView>(TICKETS);
  let open = 0;
  for (const t of await tickets.find({ status: 1 })) open += Math.max(0, t.subtotal_cents - t.applied_cents);
  const completed = await readStore.collection<OrderView>(ORDERS).find({ status: 'completed', completed_at: { $gte: from, $lte: until } });
  for (const o of completed) {
    const billed = new Set((await tickets.find({ order_id: o.id, status: { $ne: 3 } })).flatMap((t) => t.lines.map((l) => l.lineId)));
    for (const l of o.lines) if (!billed.has(l.lineId)) open += lineTotal(l) - (l.discount_cents ?? 0);
  }
  return open;
}

/** Closes the open shift with the Z report computed now; the report is recorded in the shift's stream. */
export async function closeShift(deps: ShiftDeps, countedCashCents: number, context: CommandContext) {
  const { state } = await deps.commands.state(shifts, SHIFTS_STREAM);
  const at = deps.now();
  const by = context.userId ?? null;
  // With no shift open the handler still runs: a retried close (same Idempotency-Key) is answered from its record.
  const report = state.open
    ? await shiftReport(deps, { ...state, open: state.open }, at, countedCashCents)
    : zReport({ cashFloatCents: 0, countedCashCents, openCents: 0, payments: [], refunds: [] });
  const r = await deps.commands.handle(shifts, SHIFTS_STREAM, { type: 'closeShift', shiftId: state.open?.shiftId ?? '', countedCashCents, report, at, by }, context);
  const closed = r.events.find((e) => e.type === 'ShiftClosed');
  if (closed?.type !== 'ShiftClosed') throw noOpenShift();
  return { closed: closed.data, position: r.position };
}
