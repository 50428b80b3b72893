import {
  SHIFTS_STREAM, keptCharge, keptTaxes, ledgerAfter, lineTotal, noOpenShift, openLedger, shifts, taxesMoved, zReport,
  type BillLedger, type ChargeMoved, type CountedPayment, type CountedRefund, type OpenShift, type RateTax, type Shifts, type TicketEvent, type ZReport,
} from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import { ORDERS, TICKETS, issuedBillOfTicket, type OrderView, type TicketView } from '@comanda/read-models';
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
    $or: [{ 'payments.shift_id': { $in: shiftIds } }, { 'refunds.shift_id': { $in: shiftIds } }, { 'voided.at': { $gte: shift.openedAt } }, { 'service_charge_removed.at': { $gte: shift.openedAt } }],
  });
  const payments: CountedPayment[] = [];
  const refunds: CountedRefund[] = [];
  const voidTaxes: RateTax[] = [];
  const voidCharges: ChargeMoved[] = [];
  for (const t of touched) {
    // Each payment, void and refund carries what it moved of its bill's declared taxes (issue 57), so a
    // refund takes its share back and a void of a paid line its line's tax, whichever shift they fall in.
    // The bill's service charge moves the same way (`keptCharge`), credited to the order's user id.
    let ledger: BillLedger = openLedger(issuedBillOfTicket(t));
    const to = t.service_charge?.creditedTo ?? null;
    for (const { at, event } of billMoves(t)) {
      const before = { taxes: keptTaxes(ledger), charge: keptCharge(ledger) };
      ledger = ledgerAfter(ledger, event);
      const moved = taxesMoved(before.taxes, keptTaxes(ledger)).map((x) => ({ taxRateId: x.taxRateId, name: x.name, ratePpm: x.ratePpm, amountCents: x.amountCents }));
      const chargeMoved = keptCharge(ledger) - before.charge;
      const charge: ChargeMoved = chargeMoved ? { serviceChargeCents: chargeMoved, serviceChargeTo: to } : {};
      if (event.type === 'PaymentTaken') {
        const p = event.data;
        if (mine(p.paymentId, p.shiftId, at) && (only === undefined || p.takenBy === only.takenBy)) {
          payments.push({ id: p.paymentId, method: p.method, amountCents: p.amountCents, tipCents: p.tipCents, overpaidCents: p.overpaidCents, waiter: t.waiter, taxes: moved, ...charge });
        }
      } else if (event.type === 'PaymentRefunded') {
        const r = event.data;
        if (mine(r.refundId, r.shiftId, at) && (only === undefined || r.by === only.takenBy)) refunds.push({ id: r.refundId, method: r.method, amountCents: r.amountCents, taxes: moved, ...charge });
      } else if (only === undefined && at >= shift.openedAt && at <= until) {
        // A void, or a service charge taken off, has no shift of its own: it falls in the shift open when it was made.
        voidTaxes.push(...moved);
        if (chargeMoved) voidCharges.push(charge);
      }
    }
  }
  const report = zReport({ cashFloatCents: shift.cashFloatCents, countedCashCents, openCents: await openAmount(deps.readStore, shift.openedAt, until), payments, refunds, voidTaxes, voidCharges });
  // Covers are the whole shift's (the orders completed in it), not one waiter's takings.
  return only === undefined ? { ...report, covers: await coversIn(deps.readStore, shift.openedAt, until) } : report;
}

/** Covers: the guests of the orders completed between `from` and `until`, as the waiters counted them at seating. */
async function coversIn(readStore: ReadStore, from: number, until: number): Promise<number> {
  const completed = await readStore.collection<OrderView>(ORDERS).find({ status: 'completed', completed_at: { $gte: from, $lte: until } });
  return completed.reduce((sum, o) => sum + (o.guests ?? 0), 0);
}

/**
 * A ticket's payments, voids, refunds and a service charge taken off as events, in the order they
 * happened: by time, and at the same instant a void before the refund appended with it.
 */
function billMoves(t: TicketView): Array<{ at: number; event: TicketEvent }> {
  const moves: Array<{ at: number; rank: number; event: TicketEvent }> = [
    ...t.payments.map((p) => ({
      at: p.taken_at, rank: 0, event: {
        type: 'PaymentTaken' as const,
        data: { paymentId: p.id, method: p.method, amountCents: p.amount_cents, tipCents: p.tip_cents, overpaidCents: p.overpaid_cents, details: p.details, shiftId: p.shift_id, takenBy: p.taken_by, takenAt: p.taken_at },
      },
    })),
    ...t.voided.map((v) => ({ at: v.at, rank: 1, event: { type: 'TicketLineVoided' as const, data: { lineId: v.line_id, amountCents: v.amount_cents, reason: v.reason, by: v.by, at: v.at } } })),
    ...(t.service_charge_removed ? [removalMove(t.service_charge_removed)] : []),
    ...t.refunds.map((r) => ({
      at: r.at, rank: 2, event: {
        type: 'PaymentRefunded' as const,
        data: { refundId: r.id, paymentId: r.payment_id, method: r.method, amountCents: r.amount_cents, reason: r.reason, shiftId: r.shift_id, by: r.by, at: r.at },
      },
    })),
  ];
  return moves.sort((a, b) => a.at - b.at || a.rank - b.rank);
}

const removalMove = (r: NonNullable<TicketView['service_charge_removed']>) => ({
  at: r.at, rank: 1, event: { type: 'ServiceChargeRemoved' as const, data: { amountCents: r.amount_cents, chargeCents: r.charge_cents, reason: r.reason, by: r.by, at: r.at } },
});

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
