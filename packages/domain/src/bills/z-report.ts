import type { Cents } from '../money.js';
import { type StoredRate, ratePpmOf } from '../menu/tax-rates.js';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-methods.js';

/** A payment as the Z report counts it. */
export type CountedPayment = {
  id: string; method: PaymentMethod; amountCents: Cents; tipCents: Cents; overpaidCents: Cents; waiter: string;
  /** The tax in what went to the bill, per rate (`paymentTaxes`); absent: none. */
  taxes?: RateTax[];
} & ChargeMoved;

/**
 * What a payment, refund or void moved of its bill's service charge (`chargeMoved` of its bill's
 * ledger: a payment adds its share, a refund or a void takes its share back, negative) and the member
 * of staff credited with it (the order's user id); absent: none.
 */
export interface ChargeMoved { serviceChargeCents?: Cents; serviceChargeTo?: string | null }

/** One rate's tax in a payment or a report (reports closed before issue 57 carry the rate in basis points). */
export type RateTax = { taxRateId: string; name: string; amountCents: Cents } & StoredRate;
/** `taxes`: the tax it took back, per rate, negative (`taxesMoved` of its bill's ledger); absent: none. */
export type CountedRefund = { id: string; method: PaymentMethod; amountCents: Cents; taxes?: RateTax[] } & ChargeMoved;

export interface ZReport {
  /** What went to bills (without tips). */
  salesCents: Cents;
  tipsCents: Cents;
  tipsByWaiter: Record<string, Cents>;
  overpaidCents: Cents;
  byMethod: Partial<Record<PaymentMethod, { count: number; amountCents: Cents; tipCents: Cents; refundsCents: Cents }>>;
  refundsCents: Cents;
  /** Everything received less everything refunded. */
  netCents: Cents;
  /** Still unpaid: pending tickets and unbilled lines of completed orders. */
  openCents: Cents;
  cashFloatCents: Cents;
  expectedCashCents: Cents;
  countedCashCents: Cents;
  /** Counted less expected: negative when the drawer is short. */
  differenceCents: Cents;
  /**
   * The service charge the shift's money kept (payments' shares less what refunds and voids took back),
   * and by the staff member credited (user id); absent on reports recorded before it.
   */
  serviceChargeCents?: Cents;
  serviceChargeByStaff?: Record<string, Cents>;
  /** The tax in the sales, per rate (absent on reports recorded before taxes). */
  taxesByRate?: RateTax[];
  /** Covers: the guests of the orders completed in the shift, where the count was said (absent on reports before issue 59). */
  covers?: number;
  /** What this report counted, so the next shift counts what arrived late and nothing twice. */
  counted: { paymentIds: string[]; refundIds: string[] };
}

/**
 * The shift's figures, to the cent. The drawer holds the float, every cash payment's amount and tip
 * (the change went back to the guest) less cash refunds; tips are listed by waiter so they can be paid out.
 */
export function zReport(input: {
  cashFloatCents: Cents; countedCashCents: Cents; openCents: Cents; payments: CountedPayment[]; refunds: CountedRefund[];
  /** What voids in the shift moved of their bills' taxes with no money of their own (a bill paid in part). */
  voidTaxes?: RateTax[];
  /** What those voids (and service charges taken off) moved of their bills' service charges. */
  voidCharges?: ChargeMoved[];
}): ZReport {
  const byMethod: ZReport['byMethod'] = {};
  const tipsByWaiter: Record<string, Cents> = {};
  const row = (m: PaymentMethod) => (byMethod[m] ??= { count: 0, amountCents: 0, tipCents: 0, refundsCents: 0 });
  let salesCents = 0, tipsCents = 0, overpaidCents = 0, refundsCents = 0, drawer = 0, serviceChargeCents = 0;
  const taxes = new Map<string, { taxRateId: string; name: string; ratePpm: number; amountCents: Cents }>();
  const declare = (x: RateTax) => {
    const row = taxes.get(x.taxRateId) ?? { taxRateId: x.taxRateId, name: x.name, ratePpm: ratePpmOf(x), amountCents: 0 };
    row.amountCents += x.amountCents;
    taxes.set(x.taxRateId, row);
  };
  const serviceChargeByStaff: Record<string, Cents> = {};
  const credit = (m: ChargeMoved) => {
    if (!m.serviceChargeCents) return;
    serviceChargeCents += m.serviceChargeCents;
    const to = m.serviceChargeTo ?? 'unknown';
    serviceChargeByStaff[to] = (serviceChargeByStaff[to] ?? 0) + m.serviceChargeCents;
  };
  for (const x of input.voidTaxes ?? []) declare(x);
  for (const m of input.voidCharges ?? []) credit(m);
  for (const refund of input.refunds) {
    for (const x of refund.taxes ?? []) declare(x);
    credit(refund);
  }
  for (const p of input.payments) {
    for (const x of p.taxes ?? []) declare(x);
    const r = row(p.method);
    r.count += 1;
    r.amountCents += p.amountCents + p.overpaidCents;
    r.tipCents += p.tipCents;
    salesCents += p.amountCents;
    tipsCents += p.tipCents;
    overpaidCents += p.overpaidCents;
    if (p.tipCents) tipsByWaiter[p.waiter] = (tipsByWaiter[p.waiter] ?? 0) + p.tipCents;
    credit(p);
    if (PAYMENT_METHODS[p.method].drawer) drawer += p.amountCents + p.tipCents + p.overpaidCents;
  }
  for (const refund of input.refunds) {
    row(refund.method).refundsCents += refund.amountCents;
    refundsCents += refund.amountCents;
    if (PAYMENT_METHODS[refund.method].drawer) drawer -= refund.amountCents;
  }
  const expectedCashCents = input.cashFloatCents + drawer;
  return {
    salesCents, tipsCents, tipsByWaiter, overpaidCents, byMethod, refundsCents,
    netCents: salesCents + tipsCents + overpaidCents - refundsCents,
    openCents: input.openCents,
    cashFloatCents: input.cashFloatCents,
    expectedCashCents,
    countedCashCents: input.countedCashCents,
    differenceCents: input.countedCashCents - expectedCashCents,
    // A member of staff whose charges in the shift came back to nothing (refunded, voided) has no entry.
    serviceChargeCents, serviceChargeByStaff: Object.fromEntries(Object.entries(serviceChargeByStaff).filter(([, cents]) => cents !== 0)),
    // A rate whose tax in the shift came back to nothing (its lines voided, refunded) has no row.
    taxesByRate: [...taxes.values()].filter((x) => x.amountCents !== 0).sort((a, b) => a.ratePpm - b.ratePpm || a.name.localeCompare(b.name)),
    counted: { paymentIds: input.payments.map((p) => p.id), refundIds: input.refunds.map((r) => r.id) },
  };
}
