import { PAYMENT_METHODS, TICKET_STATUS_NAMES, billTaxes, billedLineCents, fromCents, percentOf, ratePpmOf, ticketCharge, type ZReport } from '@comanda/domain';
import { billOfTicket, type PaymentView, type ShiftView, type TicketView } from '@comanda/read-models';
import { Type } from 'typebox';

const Money = (description?: string) => Type.Number(description ? { description } : {});

export const PaymentSchema = Type.Object({
  id: Type.String(),
  method: Type.Enum(Object.keys(PAYMENT_METHODS), { description: 'cash, credit_card, debit_card, lightning' }),
  amount: Money('what went to the bill, plus any over-payment held'),
  overpaid: Type.Optional(Money('received beyond the due and the tip, held for a refund')),
  sats: Type.Optional(Type.Integer({ description: 'lightning: sats received' })),
  rate: Type.Optional(Type.Number({ description: 'lightning: the invoice rate (fiat per BTC) it was valued at' })),
  payment_hash: Type.Optional(Type.String()),
  flag: Type.Optional(Type.String({ description: 'lightning: why a manager should look (paid_after_expiry, ticket_already_paid, ticket_cancelled, overpaid)' })),
  by_guest: Type.Optional(Type.Boolean({ description: "lightning: paid by a guest through the bill's link (issue 63)" })),
  tip: Money(),
  tendered: Type.Optional(Money('cash handed over')),
  change: Type.Optional(Money('cash given back')),
  refunded: Money(),
  shift_id: Type.Union([Type.String(), Type.Null()]),
  taken_at: Type.String({ format: 'date-time' }),
});

export const TicketSchema = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  table_id: Type.Union([Type.String(), Type.Null()]),
  waiter: Type.String(),
  order_number: Type.Union([Type.Integer(), Type.Null()], { description: "the order's number of its business day; null for orders placed before numbers" }),
  lines: Type.Array(Type.Object({
    id: Type.String(), dish_id: Type.String(), price: Money('one portion, as ordered'), notes: Type.String(), voided: Type.Boolean({ description: 'taken off the bill (not in the subtotal)' }),
    quantity: Type.Integer({ description: 'portions (1 on tickets issued before quantities)' }), discount: Money("its discounts and its share of the order's"),
    line_total: Money('(price + modifiers) × quantity − discounts; for an item split between checks, this check\'s share of that'),
    share: Type.Union([Type.Object({ part: Type.Integer(), parts: Type.Integer() }), Type.Null()], { description: 'an item split between checks: this check\'s part of it; null: the line whole' }),
    modifiers: Type.Array(Type.Object({ option_id: Type.String(), name: Type.String({ description: 'the option chosen, e.g. "Medium"' }), price_delta: Money('per portion') })),
  })),
  share: Type.Union([Type.Object({ part: Type.Integer(), parts: Type.Integer() }), Type.Null()], { description: 'part i of n of an even split' }),
  seat: Type.Union([Type.Integer(), Type.Null()], { description: 'split by seats: the seat this bill is for; null for the table\'s shared lines and on any other bill' }),
  bill_for: Type.Union([Type.String(), Type.Null()], { description: 'split by seats: who the bill is for, as the receipt prints it ("Seat 2", or "Table (shared)" for the lines with no seat); null on any other bill' }),
  subtotal: Money('its lines (or share) less voids; with COMANDA_PRICES_INCLUDE_TAX=false net of tax, taxes added after it'),
  service_charge: Type.Union([Type.Object({
    percent: Type.Number({ description: 'of the bill after discounts; 0: waived by hand' }),
    amount: Money('this ticket\'s charge (a part of an even split: its share; the parts add up to the whole\'s); 0 once taken off'),
    taxable: Type.Boolean({ description: 'taxed at the bill\'s rates (its tax is in `taxes`)' }),
    reason: Type.Enum(['party', 'staff'], { description: 'party: applied automatically for a party of party_size guests (distinct seats on the order); staff: set by hand by set_by' }),
    party_size: Type.Union([Type.Integer(), Type.Null()]),
    set_by: Type.Union([Type.String(), Type.Null()], { description: 'the user id who set it by hand' }),
    credited_to: Type.Union([Type.String(), Type.Null()], { description: 'the staff member credited with it: the order\'s user id' }),
    removed: Type.Union([Type.Object({ by: Type.Union([Type.String(), Type.Null()]), reason: Type.String(), at: Type.String({ format: 'date-time' }), amount: Money('what the bill asks less') }), Type.Null()], {
      description: 'a manager took it off (POST /tickets/{id}/service-charge/removal)',
    }),
  }), Type.Null()], { description: 'the service charge (automatic gratuity) decided when the bill was issued; null: none' }),
  taxes: Type.Array(Type.Object({
    tax_rate_id: Type.String(), name: Type.String(), rate: Type.Number({ description: 'percent' }), base: Money('net of tax'), amount: Money('the tax'),
  }), { description: 'per rate, as issued: inclusive prices: amount = round half up of gross × rate / (100 + rate); exclusive: of net × rate / 100' }),
  tip: Money(),
  total: Money('subtotal + service charge (+ taxes when prices exclude them) + tip'), paid: Money('received less refunded'), due: Money(), refunded: Money(),
  status: Type.Union([
    Type.Literal(1, { title: 'pending', description: 'issued, not fully paid' }),
    Type.Literal(2, { title: 'paid', description: 'paid in full' }),
    Type.Literal(3, { title: 'cancelled', description: 'cancelled: its lines may be billed again' }),
  ], { description: '1 pending, 2 paid, 3 cancelled (status_name says it in words)' }),
  status_name: Type.Enum(Object.values(TICKET_STATUS_NAMES), { description: 'the status in words' }),
  currency_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  paid_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  payments: Type.Array(PaymentSchema),
  refunds: Type.Array(Type.Object({
    id: Type.String(), payment_id: Type.String(), amount: Money(), reason: Type.String(), at: Type.String({ format: 'date-time' }),
    by: Type.Union([Type.String(), Type.Null()], { description: 'the user id who refunded' }),
    approved_by: Type.Union([Type.String(), Type.Null()], { description: "the user id of the manager who approved it (a manager's own refund: themselves)" }),
  })),
  voids: Type.Array(Type.Object({ line_id: Type.String(), amount: Money(), reason: Type.String(), at: Type.String({ format: 'date-time' }) })),
  version: Type.Integer(),
}, { $id: 'Ticket' });

const iso = (ms: number) => new Date(ms).toISOString();

export const paymentResponse = (p: PaymentView) => ({
  id: p.id, method: p.method, amount: fromCents(p.amount_cents + p.overpaid_cents), tip: fromCents(p.tip_cents),
  ...(p.details.method === 'cash' ? { tendered: fromCents(p.details.tenderedCents), change: fromCents(p.details.changeCents) } : {}),
  ...(p.details.method === 'lightning'
    ? { overpaid: fromCents(p.overpaid_cents), sats: p.details.sats, rate: Number(p.details.rate), payment_hash: p.details.paymentHash, ...(p.details.flag ? { flag: p.details.flag } : {}), ...(p.details.byGuest ? { by_guest: true } : {}) }
    : {}),
  refunded: fromCents(p.refunded_cents), shift_id: p.shift_id, taken_at: iso(p.taken_at),
});

/** A ticket's taxes per rate from its lines as issued, less voids (`billTaxes`, the rule the ticket decider applies). */
export function ticketTaxesOf(t: TicketView) {
  const voided = new Set(t.voided.map((v) => v.line_id));
  const { taxes } = billTaxes(billOfTicket(t), voided);
  const added = t.prices_include_tax === false ? taxes.reduce((sum, x) => sum + x.amountCents, 0) : 0;
  return { taxes, added, serviceCharge: ticketCharge(billOfTicket(t), voided) };
}

function serviceChargeResponse(t: TicketView, amountCents: number) {
  const c = t.service_charge;
  if (!c) return null;
  const r = t.service_charge_removed;
  return {
    percent: fromCents(c.rateBp), amount: fromCents(amountCents), taxable: c.taxable, reason: c.reason, party_size: c.partySize ?? null, set_by: c.setBy ?? null,
    credited_to: c.creditedTo, removed: r ? { by: r.by, reason: r.reason, at: iso(r.at), amount: fromCents(r.amount_cents) } : null,
  };
}

/** Who a bill of a split by seats is for, as its receipt prints it; null for a bill not split by seats. */
export const billFor = (t: Pick<TicketView, 'for_seat'>): string | null =>
  t.for_seat === undefined ? null : t.for_seat === null ? 'Table (shared)' : `Seat ${t.for_seat}`;

export function ticketFiguresOf(t: TicketView) {
  const due = t.status === 1 ? Math.max(0, t.subtotal_cents - t.applied_cents) : 0;
  return { subtotal: t.subtotal_cents, tip: t.tip_cents, total: t.subtotal_cents + t.tip_cents, paid: t.received_cents - t.refunded_cents, due, refunded: t.refunded_cents };
}

export function ticketResponse(t: TicketView) {
  const f = ticketFiguresOf(t);
  const tax = ticketTaxesOf(t);
  return {
    id: t.id, order_id: t.order_id, table_id: t.table_id, waiter: t.waiter, order_number: t.order_number ?? null,
    lines: t.lines.map((l) => ({
      id: l.lineId, dish_id: l.dishId, price: fromCents(l.priceCents), notes: l.notes, voided: t.voided.some((v) => v.line_id === l.lineId),
      quantity: l.quantity ?? 1, discount: fromCents(l.discountCents ?? 0), line_total: fromCents(billedLineCents(l)), share: l.share ?? null,
      modifiers: (l.modifiers ?? []).map((m) => ({ option_id: m.optionId, name: m.name, price_delta: fromCents(m.priceDeltaCents) })),
    })),
    share: t.share, seat: t.for_seat ?? null, bill_for: billFor(t), subtotal: fromCents(f.subtotal - tax.added - tax.serviceCharge),
    service_charge: serviceChargeResponse(t, tax.serviceCharge),
    taxes: tax.taxes.map((x) => ({ tax_rate_id: x.taxRateId, name: x.name, rate: percentOf(x.ratePpm), base: fromCents(x.baseCents), amount: fromCents(x.amountCents) })), tip: fromCents(f.tip), total: fromCents(f.total), paid: fromCents(f.paid),
    due: fromCents(f.due), refunded: fromCents(f.refunded), status: t.status, status_name: TICKET_STATUS_NAMES[t.status], currency_id: t.currency_id,
    created_at: t.created_at, paid_at: t.paid_at === null ? null : iso(t.paid_at), payments: t.payments.map(paymentResponse),
    refunds: t.refunds.map((r) => ({ id: r.id, payment_id: r.payment_id, amount: fromCents(r.amount_cents), reason: r.reason, at: iso(r.at), by: r.by, approved_by: r.approved_by ?? r.by })),
    voids: t.voided.map((v) => ({ line_id: v.line_id, amount: fromCents(v.amount_cents), reason: v.reason, at: iso(v.at) })),
    version: t.version,
  };
}

const MethodRow = Type.Object({ count: Type.Integer(), amount: Money(), tip: Money(), refunds: Money() });
export const ZReportSchema = Type.Object({
  sales: Money('paid toward bills, without tips'), tips: Money(), tips_by_waiter: Type.Record(Type.String(), Type.Number()),
  service_charge: Money('the service charges inside the sales: each payment carries its bill\'s charge in proportion to what it paid'),
  service_charge_by_staff: Type.Record(Type.String(), Type.Number(), { description: 'the same by the staff member credited (the order\'s user id)' }),
  overpaid: Money(), by_method: Type.Record(Type.String(), MethodRow), refunds: Money(), net: Money('received less refunded'),
  open: Money('unpaid: due on pending tickets and unbilled lines of orders completed in the shift'),
  cash_float: Money(), expected_cash: Money(), counted_cash: Type.Union([Money(), Type.Null()]), difference: Type.Union([Money(), Type.Null()]),
  taxes_by_rate: Type.Array(Type.Object({ tax_rate_id: Type.String(), name: Type.String(), rate: Type.Number(), amount: Money() }), {
    description: "the tax in the sales, per rate: each payment carries its bill's taxes in proportion to what it paid",
  }),
  covers: Type.Integer({ minimum: 0, description: 'the guests of the orders completed in the shift, as counted at seating (0 when no count was said)' }),
});

export function zReportResponse(r: ZReport, counted = true) {
  const byMethod: Record<string, { count: number; amount: number; tip: number; refunds: number }> = {};
  for (const [m, row] of Object.entries(r.byMethod)) byMethod[m] = { count: row.count, amount: fromCents(row.amountCents), tip: fromCents(row.tipCents), refunds: fromCents(row.refundsCents) };
  return {
    sales: fromCents(r.salesCents), tips: fromCents(r.tipsCents),
    tips_by_waiter: Object.fromEntries(Object.entries(r.tipsByWaiter).map(([w, c]) => [w, fromCents(c)])),
    service_charge: fromCents(r.serviceChargeCents ?? 0),
    service_charge_by_staff: Object.fromEntries(Object.entries(r.serviceChargeByStaff ?? {}).map(([u, c]) => [u, fromCents(c)])),
    overpaid: fromCents(r.overpaidCents), by_method: byMethod, refunds: fromCents(r.refundsCents), net: fromCents(r.netCents),
    open: fromCents(r.openCents), cash_float: fromCents(r.cashFloatCents), expected_cash: fromCents(r.expectedCashCents),
    counted_cash: counted ? fromCents(r.countedCashCents) : null, difference: counted ? fromCents(r.differenceCents) : null,
    taxes_by_rate: (r.taxesByRate ?? []).map((x) => ({ tax_rate_id: x.taxRateId, name: x.name, rate: percentOf(ratePpmOf(x)), amount: fromCents(x.amountCents) })),
    covers: r.covers ?? 0,
  };
}

export const ShiftSchema = Type.Object({
  id: Type.String(), number: Type.Integer(), status: Type.Enum(['open', 'closed'], { description: 'open or closed' }), cash_float: Money(),
  opened_at: Type.String({ format: 'date-time' }), closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  report: Type.Union([ZReportSchema, Type.Null()], { description: "the Z report (closed), or the figures so far (open); null for staff who do not run the till (waiters): the drawer's expected cash is not theirs to know" }),
  taken_by_me: Type.Optional(Type.Object({ payments: Type.Integer(), sales: Money(), tips: Money(), refunds: Money() }, { description: 'the open shift: what the signed-in member of staff took themselves' })),
}, { $id: 'Shift' });

export const shiftResponse = (s: Pick<ShiftView, 'id' | 'number' | 'status' | 'cash_float_cents' | 'opened_at' | 'closed_at'>, report: ReturnType<typeof zReportResponse> | null) => ({
  id: s.id, number: s.number, status: s.status, cash_float: fromCents(s.cash_float_cents), opened_at: iso(s.opened_at),
  closed_at: s.closed_at === null ? null : iso(s.closed_at), report,
});
