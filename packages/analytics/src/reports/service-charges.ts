import { type BillLedger, keptCharge } from '@comanda/domain';
import type { BillChange } from '../bill-ledgers.js';
import type { LocalClock } from '../clock.js';
import { type DayRange, type Row, bucket, compareText, daysIn, money } from '../report.js';

/**
 * Service charges for the sales report, worked out from the bills' ledgers the sales report already
 * follows (`followBill`), by the rule its taxes follow: a bill's charge as its money kept it
 * (`keptCharge`: less voided lines' share, none once a manager took it off) counts on the day the
 * bill is paid; what a later void or refund takes back of it, on that day. By day, and by the member
 * of staff credited (the order's user id, never a name). Kept apart so the sales report only routes to it.
 */
export interface ServiceChargeLedger {
  /** day → user id (or `unknown`) → bills paid with a charge, and cents. */
  days: Map<string, Map<string, { bills: number; cents: number }>>;
}

export const newServiceChargeLedger = (): ServiceChargeLedger => ({ days: new Map() });

const creditedTo = (l: BillLedger): string => l.bill.serviceCharge?.creditedTo ?? 'unknown';

function credit(ledger: ServiceChargeLedger, day: string, to: string, bills: number, cents: number): void {
  const row = bucket(bucket(ledger.days, day, () => new Map()), to, () => ({ bills: 0, cents: 0 }));
  row.bills += bills;
  row.cents += cents;
}

/** A bill paid (`TicketPaid`): its charge as kept, credited on the day paid. */
export function chargePaid(ledger: ServiceChargeLedger, clock: LocalClock, at: number, change: BillChange): void {
  const { after } = change;
  if (!after?.bill.serviceCharge?.rateBp) return;
  credit(ledger, clock.day(at), creditedTo(after), 1, keptCharge(after));
}

/** A void or refund of a bill already paid: what it took back of the charge, on its own day (a bill not yet paid counts it when paid). */
export function chargeMoved(ledger: ServiceChargeLedger, clock: LocalClock, at: number, change: BillChange): void {
  const { before, after } = change;
  if (!before?.paid || !after || !before.bill.serviceCharge?.rateBp) return;
  const moved = keptCharge(after) - keptCharge(before);
  if (moved !== 0) credit(ledger, clock.day(at), creditedTo(before), 0, moved);
}

/** A range's service charges: by day paid (bills, cents) and by the staff member credited (user id). */
export function serviceCharges(ledger: ServiceChargeLedger, range: DayRange): { byDay: Row[]; byStaff: Row[] } {
  const byDay: Row[] = [];
  const staff = new Map<string, { bills: number; cents: number }>();
  for (const [day, rows] of daysIn(ledger.days, range)) {
    let bills = 0, cents = 0;
    for (const [userId, x] of rows) {
      const row = bucket(staff, userId, () => ({ bills: 0, cents: 0 }));
      row.bills += x.bills;
      row.cents += x.cents;
      bills += x.bills;
      cents += x.cents;
    }
    byDay.push({ day, bills, service_charge: money(cents) });
  }
  const ids = [...staff.keys()].sort(compareText);
  return { byDay, byStaff: ids.map((userId) => ({ user_id: userId, bills: staff.get(userId)!.bills, service_charge: money(staff.get(userId)!.cents) })) };
}
