import fc from 'fast-check';
import {
  DomainError, MENU_STREAM, STAFF_STREAM, type Authority, type TillMethod, type ZReport, discountedTotal, lineTotal, menu, order, orderStream, ownAuthority, roster, ticket, ticketFigures, ticketStream,
} from '@comanda/domain';
import { CommandHandler, MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { ordersProjection, ticketsProjection } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { type Split, cancelTicket, closeShift, giveDiscount, issueTickets, openShift, placeOrder, refundPayment, takePayment, voidTicketLine } from '@comanda/workflows';

/**
 * A day of service as plain data (fast-check generates and shrinks it), and `runDay`, which plays it
 * through the real workflows and deciders over a MemoryEventStore. The plan names things by index
 * (dish 7 of a menu of 3 is dish 1): every plan is playable, so shrinking never produces a day that
 * cannot happen. A step the deciders refuse (a refund larger than the payment it names, a discount
 * that would take the order below zero) is counted in `refused`, never silently skipped.
 */
export interface DishPlan { priceCents: number; rate: number; options: number[] }
export interface LinePlan { dish: number; quantity: number; seat: number | null; options: number[]; overrideCents: number | null }
export interface DiscountPlan { line: number | null; kind: 'percent' | 'amount' | 'comp'; value: number }
export interface PaymentPlan { method: TillMethod; weight: number; tipCents: number; changeCents: number }
export interface RefundPlan { payment: number; amount: number; beforeVoid: boolean }
export interface TicketPlan { voidBefore: number | null; payments: PaymentPlan[]; refunds: RefundPlan[]; voidAfter: number | null }
export type SplitPlan = { split: 'none' } | { split: 'even'; parts: number } | { split: 'seats' } | { split: 'item'; checks: number };
export interface OrderPlan {
  waiter: number; lines: LinePlan[]; reprices: Array<{ line: number; priceCents: number }>; voidFired: number | null;
  discounts: DiscountPlan[]; completeFirst: boolean; split: SplitPlan; rebill: SplitPlan | null; walkOut: boolean; tickets: TicketPlan[];
}
export interface DayPlan { rates: number[]; dishes: DishPlan[]; orders: OrderPlan[] }

/** `value` in `times` of `outOf` cases, else null (first: a failure shrinks towards the step left out). */
const sometimes = <T>(value: fc.Arbitrary<T>, times: number, outOf: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: outOf - times, arbitrary: fc.constant(null) }, { weight: times, arbitrary: value });

const splitPlan: fc.Arbitrary<SplitPlan> = fc.oneof(
  fc.constant({ split: 'none' as const }), fc.record({ split: fc.constant('even' as const), parts: fc.integer({ min: 2, max: 4 }) }), fc.constant({ split: 'seats' as const }),
  fc.record({ split: fc.constant('item' as const), checks: fc.integer({ min: 2, max: 4 }) }),
);
const ticketPlan: fc.Arbitrary<TicketPlan> = fc.record({
  voidBefore: sometimes(fc.nat(9), 1, 3),
  payments: fc.array(fc.record({
    method: fc.constantFrom<TillMethod>('cash', 'credit_card', 'debit_card'), weight: fc.integer({ min: 1, max: 99 }),
    tipCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 })), changeCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 })),
  }), { minLength: 1, maxLength: 3 }),
  refunds: fc.array(fc.record({ payment: fc.nat(3), amount: fc.nat(), beforeVoid: fc.boolean() }), { maxLength: 2 }),
  voidAfter: sometimes(fc.nat(9), 2, 3),
});
const orderPlan: fc.Arbitrary<OrderPlan> = fc.record({
  waiter: fc.nat(1),
  lines: fc.array(fc.record({
    dish: fc.nat(9), quantity: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 99 }) }),
    seat: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 2 }), options: fc.array(fc.nat(5), { maxLength: 3 }),
    overrideCents: sometimes(fc.integer({ min: 1, max: 30_000 }), 1, 6),
  }), { minLength: 1, maxLength: 5 }),
  reprices: fc.array(fc.record({ line: fc.nat(9), priceCents: fc.integer({ min: 0, max: 30_000 }) }), { maxLength: 1 }),
  voidFired: sometimes(fc.nat(9), 1, 3),
  discounts: fc.array(fc.record({
    line: fc.option(fc.nat(9)), kind: fc.constantFrom<DiscountPlan['kind']>('percent', 'amount', 'comp'), value: fc.nat(),
  }), { maxLength: 3 }),
  completeFirst: fc.boolean(), split: splitPlan, rebill: sometimes(splitPlan, 1, 6), walkOut: fc.nat(5).map((n) => n === 0),
  tickets: fc.array(ticketPlan, { minLength: 1, maxLength: 3 }),
});

export const dayPlan: fc.Arbitrary<DayPlan> = fc.record({
  // Parts per million: four decimals of a percent (88,750 is New York's 8.875 %).
  rates: fc.array(fc.oneof(fc.constantFrom(160_000, 80_000, 88_750, 210_000, 0), fc.integer({ min: 1, max: 300_000 })), { minLength: 1, maxLength: 3 }),
  dishes: fc.array(fc.record({
    priceCents: fc.integer({ min: 1, max: 30_000 }), rate: fc.nat(2), options: fc.array(fc.integer({ min: -800, max: 800 }), { maxLength: 3 }),
  }), { minLength: 1, maxLength: 4 }),
  orders: fc.array(orderPlan, { minLength: 1, maxLength: 4 }),
});

/** Ids the menu's rules want as UUIDs, the same on every run of a plan (the order of rate ids decides where a split's odd cents go). */
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const IDS = { manager: uuid(1), cashier: uuid(2), waiters: [uuid(3), uuid(4)], category: uuid(5), station: uuid(6) };
const rateId = (i: number) => uuid(100 + i);
const dishId = (i: number) => uuid(200 + i);
const optionId = (dish: number, i: number) => uuid(300 + dish * 10 + i);

export const CASH_FLOAT = 20_000;
const MANAGER = ownAuthority(IDS.manager, 'manager');
const REFUSALS = new Set(['conflict', 'validation']);

export interface Day { commands: CommandHandler; log: RecordedEvent[]; report: ZReport; happened: Map<string, number> }

/** What a dish's options may take off a portion at most: its price stays at or above it. */
const optionFloor = (options: number[]) => -options.filter((d) => d < 0).reduce((s, d) => s + d, 0);

export async function runDay(plan: DayPlan, pricesIncludeTax: boolean): Promise<Day> {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  let now = Date.parse('2026-05-04T09:00:00Z');
  const deps = { commands, now: () => now, pricesIncludeTax };
  const happened = new Map<string, number>();
  const count = (what: string) => happened.set(what, (happened.get(what) ?? 0) + 1);
  /** One step of the day, a minute after the last: a refusal the plan could not foresee is counted, anything else fails the run. */
  const step = async <T>(what: string, act: () => Promise<T>): Promise<T | null> => {
    now += 60_000;
    try {
      const done = await act();
      count(what);
      return done;
    } catch (error) {
      if (!(error instanceof DomainError) || !REFUSALS.has(error.kind)) throw error;
      count(`refused ${what}`);
      return null;
    }
  };
  const rates = plan.rates.map((ratePpm, i) => ({ id: rateId(i), ratePpm }));
  for (const [userId, role, name] of [[IDS.manager, 'manager', 'Carla'], [IDS.cashier, 'waiter', 'Caja'], [IDS.waiters[0]!, 'waiter', 'Ana'], [IDS.waiters[1]!, 'waiter', 'Beto']] as const) {
    await commands.handle(roster, STAFF_STREAM, { type: 'createUser', userId, name, role, pinHash: 'h', at: now });
  }
  for (const r of rates) await commands.handle(menu, MENU_STREAM, { type: 'createTaxRate', taxRateId: r.id, name: `Rate ${r.id.slice(-3)}`, ratePpm: r.ratePpm });
  await commands.handle(menu, MENU_STREAM, { type: 'addStation', stationId: IDS.station, name: 'Grill' });
  await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: IDS.category, name: 'Food' });
  for (const [i, d] of plan.dishes.entries()) {
    const groupId = uuid(400 + i);
    if (d.options.length) {
      const options = d.options.map((priceDeltaCents, o) => ({ id: optionId(i, o), name: `option ${o}`, priceDeltaCents }));
      await commands.handle(menu, MENU_STREAM, { type: 'createModifierGroup', groupId, name: `Extras ${i}`, minChoices: 0, maxChoices: options.length, options });
    }
    await commands.handle(menu, MENU_STREAM, {
      type: 'addDish', dishId: dishId(i), name: `Dish ${i}`, price: Math.max(d.priceCents, optionFloor(d.options)), categoryId: IDS.category,
      modifierGroupIds: d.options.length ? [groupId] : [], taxRateId: rates[d.rate % rates.length]!.id,
    });
  }
  await openShift({ ...deps, readStore: new MemoryReadStore() }, 'shift-1', CASH_FLOAT, { userId: IDS.cashier });
  for (const [n, o] of plan.orders.entries()) await playOrder(o, `order${n}`);

  async function playOrder(o: OrderPlan, orderId: string): Promise<void> {
    const stream = orderStream(orderId);
    const waiter = IDS.waiters[o.waiter % IDS.waiters.length]!;
    const state = async () => (await commands.state(order, stream)).state;
    const dishes = o.lines.map((l) => {
      const d = l.dish % plan.dishes.length;
      const options = plan.dishes[d]!.options;
      const chosen = options.length ? [...new Set(l.options.map((x) => x % options.length))] : [];
      const deltas = chosen.reduce((s, x) => s + options[x]!, 0);
      if (deltas < 0) count('negative modifiers');
      // A price of the line's own covers what its options take off: the portion is at least 0.
      const priceAtOrder = l.overrideCents === null ? undefined : Math.max(l.overrideCents, -deltas, 1) / 100;
      return { dishId: dishId(d), quantity: l.quantity, seat: l.seat, modifiers: chosen.map((x) => optionId(d, x)), ...(priceAtOrder === undefined ? {} : { priceAtOrder }) };
    });
    const overrides = dishes.some((d) => d.priceAtOrder !== undefined);
    // A waiter's order with prices of its own carries the manager's approval, as the API's would.
    const authority: Authority = overrides ? { userId: waiter, role: 'waiter', approvedBy: IDS.manager, reason: 'regular guest' } : ownAuthority(waiter, 'waiter');
    const placed = await step(overrides ? 'order with a price override' : 'order', () =>
      placeOrder(commands, { orderId, userId: waiter, tableId: null, dishes, lineId: (i) => `${orderId}-l${i}`, at: now, timezone: 'UTC', authority, context: {} }));
    if (!placed) return;
    for (const r of o.reprices) {
      const line = Object.values((await state()).lines)[r.line % o.lines.length]!;
      const floor = -line.modifiers.reduce((s, m) => s + m.priceDeltaCents, 0);
      await step('price override by a manager', () => commands.handle(order, stream, { type: 'updateLine', lineId: line.lineId, priceCents: Math.max(r.priceCents, floor, 0), authority: MANAGER }));
    }
    const lines = Object.values((await state()).lines);
    const fired = lines.map((l) => ({ lineId: l.lineId, firingId: `${orderId}-f`, dishId: l.dishId, stationId: IDS.station, ticketId: `${orderId}-k`, dishName: 'dish' }));
    await step('fire', () => commands.handle(order, stream, { type: 'fireLines', firingId: `${orderId}-f`, lines: fired, at: now }));
    await step('preparing', () => commands.handle(order, stream, { type: 'changeStatus', to: 'preparing', at: now }));
    if (o.voidFired !== null && lines.length > 1) {
      await step('void of a fired line', () => commands.handle(order, stream, { type: 'removeLine', lineId: lines[o.voidFired! % lines.length]!.lineId, authority: MANAGER }));
    }
    for (const [i, d] of o.discounts.entries()) await discount(d, `${orderId}-d${i}`);
    await step('ready', () => commands.handle(order, stream, { type: 'changeStatus', to: 'ready', at: now }));
    const complete = () => step('completed', () => commands.handle(order, stream, { type: 'changeStatus', to: 'completed', at: now }));
    if (o.completeFirst) await complete();
    let tickets = await bill(o.split);
    if (o.rebill) {
      for (const id of tickets) await step('bill cancelled', () => cancelTicket(deps, id, 'wrong split', { userId: IDS.manager }));
      tickets = await bill(o.rebill);
    }
    if (!o.completeFirst) await complete();
    if (o.walkOut) count('walk-out');
    for (const [i, id] of tickets.entries()) await settle(id, o.tickets[i % o.tickets.length]!, o.walkOut);

    async function discount(d: DiscountPlan, discountId: string): Promise<void> {
      const s = await state();
      const ids = Object.keys(s.lines);
      const line = d.line === null && d.kind !== 'comp' ? null : ids[(d.line ?? 0) % ids.length]!;
      const own = Object.values(s.discounts).filter((x) => x.lineId === line).reduce((sum, x) => sum + x.amountCents, 0);
      const appliesTo = line === null ? discountedTotal(s.lines, s.discounts) : lineTotal(s.lines[line]!) - own;
      if (d.kind === 'amount' && appliesTo < 1) return;
      const [kind, value] = d.kind === 'comp' ? ['percent' as const, 100] : d.kind === 'percent' ? ['percent' as const, (1 + (d.value % 10_000)) / 100] : ['amount' as const, (1 + (d.value % appliesTo)) / 100];
      await step(d.kind === 'comp' ? 'comp' : `${line === null ? 'order' : 'line'} discount`, () => giveDiscount(commands, {
        orderId, discountId, lineId: line, kind, value, reason: d.kind === 'comp' ? 'birthday' : 'regular guest', authority: MANAGER, waiterMaxPercent: 10, at: now, context: {},
      }));
    }

    /** Issue 59: the first unbilled line split between every check, the others dealt round them. */
    function itemSplit(s: Awaited<ReturnType<typeof state>>, checks: number): Split {
      const unbilled = Object.keys(s.lines).filter((l) => !s.billing.billedLines[l]);
      if (unbilled.length === 0) return { split: 'none' };
      const [shared, ...rest] = unbilled;
      return { split: 'lines', groups: Array.from({ length: checks }, (_, i) => [shared!, ...rest.filter((_, j) => j % checks === i)]) };
    }

    async function bill(plan: SplitPlan): Promise<string[]> {
      const s = await state();
      const owes = discountedTotal(s.lines, s.discounts);
      // An even split asks at least a cent of every part.
      const split: Split = plan.split === 'even' ? (owes >= plan.parts ? plan : { split: 'none' }) : plan.split === 'item' ? itemSplit(s, plan.checks) : plan;
      const issued = await step(plan.split === 'item' ? 'split item' : `split ${split.split}`, () => issueTickets(deps, orderId, split, { userId: IDS.cashier }));
      return issued?.ticketIds ?? [];
    }
  }

  async function settle(ticketId: string, p: TicketPlan, walkOut: boolean): Promise<void> {
    const state = async () => (await commands.state(ticket, ticketStream(ticketId))).state;
    const voidLine = async (pick: number, what: string, refundId: string) => {
      const t = await state();
      const live = t.issue!.lines.filter((l) => !t.voided[l.lineId]);
      if (t.issue!.share || live.length < 2) return;
      // The payment that can give back the most: the void's refund comes from it.
      const [payment] = Object.values(t.payments).sort((a, b) => (b.amountCents + b.tipCents - b.refundedCents) - (a.amountCents + a.tipCents - a.refundedCents));
      await step(what, () => voidTicketLine(deps, ticketId, { lineId: live[pick % live.length]!.lineId, reason: 'wrong dish', refundId, ...(payment ? { paymentId: payment.paymentId } : {}) }, { userId: IDS.manager }));
    };
    if (p.voidBefore !== null) await voidLine(p.voidBefore, 'void before payment', `${ticketId}-rv0`);
    if (walkOut) return;
    for (const [i, pay] of p.payments.entries()) {
      const { due } = ticketFigures(await state());
      if (due <= 0) break;
      const last = i === p.payments.length - 1;
      const amountCents = last ? due : Math.max(1, Math.floor((due * pay.weight) / 100));
      const cash = pay.method === 'cash' ? { tenderedCents: amountCents + pay.tipCents + pay.changeCents } : {};
      await step(`${pay.method} payment`, () => takePayment(deps, ticketId, { paymentId: `${ticketId}-p${i}`, method: pay.method, amountCents, tipCents: pay.tipCents, ...cash }, { userId: IDS.cashier }));
      if (pay.tipCents) count('tip');
    }
    const refund = async (r: RefundPlan, i: number) => {
      const payments = Object.values((await state()).payments);
      if (!payments.length) return;
      const x = payments[r.payment % payments.length]!;
      const refundable = x.amountCents + x.tipCents + x.overpaidCents - x.refundedCents;
      if (refundable < 1) return;
      await step('refund', () => refundPayment(deps, ticketId, { refundId: `${ticketId}-r${i}`, paymentId: x.paymentId, amountCents: 1 + (r.amount % refundable), reason: 'cold food' }, { userId: IDS.manager }));
    };
    for (const [i, r] of p.refunds.entries()) if (r.beforeVoid) await refund(r, i);
    if (p.voidAfter !== null) await voidLine(p.voidAfter, 'void after payment', `${ticketId}-rv1`);
    for (const [i, r] of p.refunds.entries()) if (!r.beforeVoid) await refund(r, i);
  }

  now += 60_000;
  const readStore = new MemoryReadStore();
  for (const event of store.readAfter(null, 1_000_000)) {
    for (const p of [ticketsProjection, ordersProjection]) if (p.handles.includes(event.type)) await p.apply(event, readStore);
  }
  const closed = await closeShift({ ...deps, readStore }, 0, { userId: IDS.cashier });
  return { commands, log: store.readAfter(null, 1_000_000), report: closed.closed.report, happened };
}
