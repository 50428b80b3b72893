import { SHIFTS_STREAM, noOpenShift, shifts, zReport, type CountedPayment, type CountedRefund, type OpenShift, type ZReport } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import { ORDERS, TICKETS, type OrderView, type TicketView } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { BillDeps } from './issue.js';

export interface ShiftDeps extends BillDeps { readStore: ReadStore }

export async function openShift(deps: ShiftDeps, shiftId: string, cashFloatCents: number, context: CommandContext) {
  const r = await deps.commands.handle(shifts, SHIFTS_STREAM, { type: 'openShift', shiftId, cashFloatCents, at: deps.now(), by: context.userId ?? null }, context);
  return { shift: r.state.open!, position: r.position, replayed: r.replayed };
}

/**
 * The figures of the open shift up to `until`: its payments and refunds, and the card payments taken
 * with no shift open since the previous one closed. Read from the tickets read model, which includes
 * every acknowledged payment (each payment's answer waited for it).
 */
export async function shiftReport(deps: ShiftDeps, shift: OpenShift, since: number, until: number, countedCashCents: number): Promise<ZReport> {
  const tickets = deps.readStore.collection<TicketView>(TICKETS);
  const mine = (s: string | null, at: number) => s === shift.shiftId || (s === null && at > since && at <= until);
  const touched = await tickets.find({
    $or: [
      { 'payments.shift_id': { $in: [shift.shiftId, null] } },
      { 'refunds.shift_id': { $in: [shift.shiftId, null] } },
    ],
  });
  const payments: CountedPayment[] = [];
  const refunds: CountedRefund[] = [];
  for (const t of touched) {
    for (const p of t.payments) {
      if (mine(p.shift_id, p.taken_at)) payments.push({ method: p.method, amountCents: p.amount_cents, tipCents: p.tip_cents, overpaidCents: p.overpaid_cents, waiter: t.waiter });
    }
    for (const r of t.refunds) if (mine(r.shift_id, r.at)) refunds.push({ method: r.method, amountCents: r.amount_cents });
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
    for (const l of o.lines) if (!billed.has(l.lineId)) open += l.priceCents;
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
    ? await shiftReport(deps, state.open, state.lastClosedAt, at, countedCashCents)
    : zReport({ cashFloatCents: 0, countedCashCents, openCents: 0, payments: [], refunds: [] });
  const r = await deps.commands.handle(shifts, SHIFTS_STREAM, { type: 'closeShift', shiftId: state.open?.shiftId ?? '', countedCashCents, report, at, by }, context);
  const closed = r.events.find((e) => e.type === 'ShiftClosed');
  if (closed?.type !== 'ShiftClosed') throw noOpenShift();
  return { closed: closed.data, position: r.position };
}
