import {
  type BillLedger, type Order, type Ticket, type TicketEvent, TICKET_STATUS, PAYMENT_METHODS, billTaxes, keptCents, keptTaxes, ledgerAfter, lineTotal, openLedger, order, orderStream,
  ticket, ticketStream,
} from '@comanda/domain';
import type { CommandHandler, RecordedEvent } from '@comanda/event-store';

/**
 * The day's figures worked out from the bills as they stand, with no report code: each ticket and
 * order stream folded by its own decider, each bill's taxes by `billTaxes` (its lines less the voided
 * ones) and `keptTaxes` (its rates' share of the money its payments kept after refunds). In cents.
 */
export interface Tally { count: number; cents: number }
export interface Standing {
  /** `net`: what the paid bills kept and the unpaid ones still ask; `refunds`: the rest once voids are off. */
  sales: { orders: number; gross: number; discounts: number; comps: number; voids: number; refunds: number; net: number };
  /** rate id → base and tax the paid bills kept. */
  taxes: Map<string, { base: number; tax: number }>;
  waiters: Map<string, { orders: number; sales: number; tips: number; unpaidOrders: number; unpaid: number }>;
  payments: Map<string, { payments: number; amount: number; tips: number; refunds: number }>;
  voids: Tally; refunds: Tally; cancelledTickets: Tally; discounts: Tally; comps: Tally;
  z: { sales: number; tips: number; overpaid: number; refunds: number; expectedCash: number; open: number };
  tickets: Array<{ id: string; t: Ticket & { issue: NonNullable<Ticket['issue']> }; kept: number; ledger: BillLedger }>;
  voidsTaken: VoidTaken[];
}

const sum = <T>(xs: Iterable<T>, f: (x: T) => number) => { let s = 0; for (const x of xs) s += f(x); return s; };
const bump = (t: Tally, cents: number) => { t.count++; t.cents += cents; };
const tally = (): Tally => ({ count: 0, cents: 0 });

/**
 * A paid bill's sales as its money stands, on the basis of menu prices: what its payments kept, up to
 * what it asks (a void's refund may come out of a tip), without the tax it kept when prices exclude tax.
 */
export function keptValue(l: BillLedger): number {
  const kept = Math.min(keptCents(l), billTaxes(l.bill, new Set(l.voided)).dueCents);
  return (l.bill.pricesIncludeTax ?? true) ? kept : kept - sum(keptTaxes(l), (x) => x.amountCents);
}

const BILL_MOVES: ReadonlySet<string> = new Set(['PaymentTaken', 'TicketPaid', 'PaymentRefunded', 'TicketLineVoided']);
const billMove = (e: Pick<RecordedEvent, 'type' | 'data'>): e is Pick<RecordedEvent, 'type' | 'data'> & TicketEvent => BILL_MOVES.has(e.type);

/** A void as its bill lost it: its line's value, what it took off the bill's sales with its own refund, and whether a refund came before it. */
export interface VoidTaken { ticketId: string; lineValue: number; taken: number; afterRefund: boolean }

/**
 * What each void took off its bill's sales, walking the bill's events in order: before the bill is
 * paid, its line's value; once paid, what the bill's money lost with the void and its own refund
 * ("void: …", the next event).
 */
function voidsOf(ticketId: string, events: readonly RecordedEvent[], first: BillLedger): VoidTaken[] {
  const voids: VoidTaken[] = [];
  let ledger = first, refunded = false;
  for (const e of events) {
    if (!billMove(e)) continue;
    const before = ledger;
    ledger = ledgerAfter(ledger, e);
    if (e.type === 'TicketLineVoided') {
      const line = before.bill.lines.find((l) => l.lineId === e.data.lineId)!;
      const lineValue = lineTotal(line) - (line.discountCents ?? 0);
      voids.push({ ticketId, lineValue, taken: before.paid ? keptValue(before) - keptValue(ledger) : lineValue, afterRefund: refunded });
    } else if (e.type === 'PaymentRefunded') {
      if (!e.data.reason.startsWith('void: ')) refunded = true;
      else if (before.paid) voids[voids.length - 1]!.taken += keptValue(before) - keptValue(ledger);
    }
  }
  return voids;
}

/** A comp is a 100 % discount on a line (the order's decider records no other mark). */
const comp = (d: Order['discounts'][string]) => d.lineId !== null && d.kind === 'percent' && d.value === 10_000;

export async function billsAsTheyStand(commands: CommandHandler, log: readonly RecordedEvent[], cashFloat: number): Promise<Standing> {
  const ids = (prefix: string) => [...new Set(log.filter((e) => e.stream.startsWith(prefix)).map((e) => e.stream.slice(prefix.length)))];
  const orders = new Map<string, Order>();
  for (const id of ids('order-')) orders.set(id, (await commands.state(order, orderStream(id))).state);
  const s: Standing = {
    sales: { orders: 0, gross: 0, discounts: 0, comps: 0, voids: 0, refunds: 0, net: 0 }, taxes: new Map(), waiters: new Map(), payments: new Map(),
    voids: tally(), refunds: tally(), cancelledTickets: tally(), discounts: tally(), comps: tally(),
    z: { sales: 0, tips: 0, overpaid: 0, refunds: 0, expectedCash: cashFloat, open: 0 }, tickets: [], voidsTaken: [],
  };
  const waiter = (userId: string) => s.waiters.get(userId) ?? s.waiters.set(userId, { orders: 0, sales: 0, tips: 0, unpaidOrders: 0, unpaid: 0 }).get(userId)!;
  const method = (m: string) => s.payments.get(m) ?? s.payments.set(m, { payments: 0, amount: 0, tips: 0, refunds: 0 }).get(m)!;
  for (const o of orders.values()) {
    for (const d of Object.values(o.discounts)) bump(comp(d) ? s.comps : s.discounts, d.amountCents);
    if (o.status !== 'completed') continue;
    s.sales.orders++;
    waiter(o.userId!).orders++;
  }
  const unpaidByOrder = new Map<string, number>();
  const billsSeen = new Set<string>();
  for (const id of ids('ticket-')) {
    const t = (await commands.state(ticket, ticketStream(id))).state;
    const issue = t.issue!;
    if (t.status === TICKET_STATUS.cancelled) {
      bump(s.cancelledTickets, issue.subtotalCents);
      continue;
    }
    const inclusive = issue.pricesIncludeTax ?? true;
    const w = waiter(orders.get(issue.orderId)!.userId!);
    // Each of the bill's lines once, whichever of its even shares, or of the checks an item is split between (issue 59), carries it.
    for (const l of issue.lines) {
      if (billsSeen.has(`${issue.billId}/${l.lineId}`)) continue;
      billsSeen.add(`${issue.billId}/${l.lineId}`);
      s.sales.gross += lineTotal(l);
    }
    const standing = billTaxes(issue, new Set(Object.keys(t.voided)));
    const voids = voidsOf(id, log.filter((e) => e.stream === ticketStream(id)), openLedger(issue));
    for (const v of voids) bump(s.voids, v.taken);
    s.voidsTaken.push(...voids);
    for (const p of Object.values(t.payments)) {
      const m = method(p.method);
      m.payments++;
      m.amount += p.amountCents + p.overpaidCents;
      m.tips += p.tipCents;
      w.tips += p.tipCents;
      s.z.sales += p.amountCents;
      s.z.tips += p.tipCents;
      s.z.overpaid += p.overpaidCents;
      if (PAYMENT_METHODS[p.method].drawer) s.z.expectedCash += p.amountCents + p.tipCents + p.overpaidCents;
    }
    for (const r of t.refunds) {
      method(r.method).refunds += r.amountCents;
      s.z.refunds += r.amountCents;
      if (PAYMENT_METHODS[r.method].drawer) s.z.expectedCash -= r.amountCents;
      if (!r.reason.startsWith('void: ')) s.refunds.count++;
    }
    const kept = sum(Object.values(t.payments), (p) => p.amountCents - Math.min(p.amountCents, p.refundedCents));
    const ledger: BillLedger = {
      ...openLedger(issue), voided: Object.keys(t.voided), paid: t.status === TICKET_STATUS.paid,
      payments: Object.fromEntries(Object.values(t.payments).map((p) => [p.paymentId, { amountCents: p.amountCents, refundedCents: p.refundedCents }])),
    };
    s.tickets.push({ id, t: { ...t, issue }, kept, ledger });
    if (t.status === TICKET_STATUS.paid) {
      for (const x of keptTaxes(ledger)) {
        const row = s.taxes.get(x.taxRateId) ?? s.taxes.set(x.taxRateId, { base: 0, tax: 0 }).get(x.taxRateId)!;
        row.base += x.baseCents;
        row.tax += x.amountCents;
      }
      const value = keptValue(ledger);
      s.sales.net += value;
      w.sales += value;
    } else {
      const value = inclusive ? standing.dueCents : standing.netCents;
      s.sales.net += value;
      s.z.open += standing.dueCents - sum(Object.values(t.payments), (p) => p.amountCents);
      unpaidByOrder.set(issue.orderId, (unpaidByOrder.get(issue.orderId) ?? 0) + value);
    }
  }
  for (const [orderId, cents] of unpaidByOrder) {
    if (cents <= 0) continue;
    const w = waiter(orders.get(orderId)!.userId!);
    w.unpaidOrders++;
    w.unpaid += cents;
  }
  s.sales.discounts = s.discounts.cents;
  s.sales.comps = s.comps.cents;
  s.sales.voids = s.voids.cents;
  // What refunds took off sales is the rest: what the orders came to less voids and what the bills stand at.
  s.sales.refunds = s.refunds.cents = s.sales.gross - s.sales.discounts - s.sales.comps - s.sales.voids - s.sales.net;
  return s;
}
