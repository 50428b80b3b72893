import {
  CURRENCIES, FLOOR_STREAM, MENU_STREAM, SHIFTS_STREAM, dayRange, floor, idFromKey, kitchenTicket, kitchenTicketId,
  kitchenTicketStream, menu, order, orderStream, seating, shifts, tableStream, ticket, ticketStream, type FiredLine, type RecordedLine, type PaymentDetails, atMenuPrice, ownAuthority,
} from '@comanda/domain';
import { CommandHandler } from '@comanda/event-store';
import { GeneratedLog } from './generated-log.js';
import { mulberry32 } from './mulberry32.js';
import { CANCEL_REASONS, CATEGORIES, DISHES, ORDERS_BY_WEEKDAY, REFUND_REASONS, SPACES, STATIONS, VOID_REASONS, WAITERS } from './restaurant.js';

export interface DemoOptions {
  seed: number;
  /** First day (YYYY-MM-DD, local). */
  start: string;
  days: number;
  timeZone: string;
  /** Orders per day relative to an ordinary taquería (1 = 70–160 a day). */
  scale?: number;
  /** Called after each simulated day with the log so far; drain it there to keep memory flat. */
  onDay?: (log: GeneratedLog, day: string) => Promise<void> | void;
}

/** Draws from a seeded generator: the same restaurant on every machine. */
function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    weighted: <T>(items: readonly T[], weight: (t: T) => number) => {
      const total = items.reduce((s, i) => s + weight(i), 0);
      let r = next() * total;
      for (const i of items) if ((r -= weight(i)) < 0) return i;
      return items[items.length - 1]!;
    },
  };
}

const MIN = 60_000;

/**
 * A busy restaurant's history, written through the product's own deciders and command handler (so
 * every event is one the service could have written): menu, floor, a shift, then each day
 * lunch and dinner services — tables seated, orders placed and fired, the kitchen cooking and bumping, bills
 * issued and paid (cash, cards, Lightning with sats), tables freed — with a few cancellations, voids
 * and refunds. The same seed gives the same log, hence the same reports.
 */
export async function generateDemo(options: DemoOptions): Promise<GeneratedLog> {
  const rnd = prng(options.seed);
  const log = new GeneratedLog();
  // A cache as large as the history: the generated log keeps no streams to read back.
  const handler = new CommandHandler(log, Number.MAX_SAFE_INTEGER);
  let n = 0;
  const id = (kind: string) => idFromKey('demo', String(options.seed), kind, String(n++));
  const run: typeof handler.handle = (decider, stream, command) => handler.handle(decider, stream, command);
  /** A table as the floor has it: each table's own stream decides its seatings on it. */
  const onFloor = async (tableId: string) => (await handler.state(floor, FLOOR_STREAM)).state.tables[tableId] ?? null;
  const first = dayRange(options.start, options.timeZone).start;
  const setupAt = first - 24 * 60 * MIN;
  log.now = setupAt;

  // Staff are names and ids on orders, not accounts: the roster stays empty, so the service creates
  // its first admin as on any first start.
  const managerId = id('user');
  const waiters = WAITERS.map((name) => ({ id: id('user'), name }));
  const stations = new Map<string, { id: string; minutes: readonly [number, number] }>();
  for (const s of STATIONS) {
    const stationId = id('station');
    stations.set(s.key, { id: stationId, minutes: s.minutes });
    await run(menu, MENU_STREAM, { type: 'addStation', stationId, name: s.name });
  }
  const categories = new Map<string, { id: string; station: string }>();
  for (const c of CATEGORIES) {
    const categoryId = id('category');
    categories.set(c.key, { id: categoryId, station: c.station });
    await run(menu, MENU_STREAM, { type: 'addCategory', categoryId, name: c.name, stationId: stations.get(c.station)!.id });
  }
  const dishes: Array<{ id: string; name: string; price: number; weight: number; station: string }> = [];
  for (const [name, cat, price, weight] of DISHES) {
    const dishId = id('dish');
    dishes.push({ id: dishId, name, price, weight, station: categories.get(cat)!.station });
    await run(menu, MENU_STREAM, { type: 'addDish', dishId, name, price, categoryId: categories.get(cat)!.id });
  }
  const tables: Array<{ id: string; name: string; busyUntil: number }> = [];
  for (const [space, count] of SPACES) {
    const spaceId = id('space');
    await run(floor, FLOOR_STREAM, { type: 'createSpace', spaceId, name: space });
    for (let i = 1; i <= count; i++) {
      const t = { id: id('table'), name: `${space[0]}${i}`, busyUntil: 0 };
      tables.push(t);
      await run(floor, FLOOR_STREAM, { type: 'addTable', tableId: t.id, name: t.name, spaceId, status: 'available', orderId: null });
    }
  }
  const shiftId = id('shift');
  await run(shifts, SHIFTS_STREAM, { type: 'openShift', shiftId, cashFloatCents: 200000, at: setupAt, by: managerId });

  for (let d = 0; d < options.days; d++) {
    const day = new Date(Date.parse(`${options.start}T00:00:00Z`) + d * 24 * 60 * MIN).toISOString().slice(0, 10);
    const { start } = dayRange(day, options.timeZone);
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    const count = Math.max(1, Math.round(ORDERS_BY_WEEKDAY[weekday]! * (options.scale ?? 1) * (0.85 + rnd.next() * 0.3)));
    // Each action of the day at its time; run in time order so the log interleaves as a service would.
    const actions: Array<{ at: number; seq: number; act: () => Promise<unknown> }> = [];
    const at = (time: number, act: () => Promise<unknown>) => actions.push({ at: time, seq: actions.length, act: () => ((log.now = time), act()) });
    for (let o = 0; o < count; o++) {
      const dinner = rnd.chance(0.55);
      const seatedAt = start + (dinner ? 19 * 60 + rnd.int(0, 210) : 13 * 60 + rnd.int(0, 180)) * MIN + rnd.int(0, 59) * 1000;
      planOrder(seatedAt);
    }
    function planOrder(seatedAt: number) {
      const orderId = id('order');
      const waiter = rnd.pick(waiters);
      const free = tables.filter((t) => t.busyUntil < seatedAt);
      const table = rnd.chance(0.9) && free.length ? rnd.pick(free) : null;
      const stay = rnd.int(40, 110) * MIN;
      if (table) table.busyUntil = seatedAt + stay + 5 * MIN;
      const lines: Array<RecordedLine & { station: string; name: string }> = [];
      for (let i = rnd.int(1, 6); i > 0; i--) {
        const dish = rnd.weighted(dishes, (x) => x.weight);
        lines.push({ lineId: id('line'), dishId: dish.id, priceCents: dish.price, notes: '', station: dish.station, name: dish.name });
      }
      const stream = orderStream(orderId);
      const placedAt = seatedAt + 2 * MIN;
      const firedAt = placedAt + MIN;
      const cancelled = rnd.chance(0.03);
      if (table) at(seatedAt, async () => handler.handle(seating, tableStream(table.id), { type: 'occupyTable', tableId: table.id, orderId, floor: await onFloor(table.id) }));
      at(placedAt, () => handler.handle(order, stream, { type: 'placeOrder', orderId, userId: waiter.id, tableId: table?.id ?? null, waiter: waiter.name, at: placedAt, lines: atMenuPrice(lines.map(({ lineId, dishId, priceCents, notes }) => ({ lineId, dishId, priceCents, notes }))), authority: ownAuthority(waiter.id, 'waiter') }));
      // Fired by station, as the kitchen screens receive them.
      const firingId = id('firing');
      const byStation = new Map<string, typeof lines>();
      for (const l of lines) byStation.set(l.station, [...(byStation.get(l.station) ?? []), l]);
      const fired: FiredLine[] = [];
      for (const [station, ls] of byStation) {
        const ticketId = kitchenTicketId(orderId, firingId, stations.get(station)!.id);
        for (const l of ls) fired.push({ lineId: l.lineId, firingId, dishId: l.dishId, stationId: stations.get(station)!.id, ticketId, dishName: l.name });
      }
      let readyAt = firedAt;
      at(firedAt, async () => {
        await handler.handle(order, stream, { type: 'fireLines', firingId, lines: fired, at: firedAt });
        for (const [station, ls] of byStation) {
          const ticketId = kitchenTicketId(orderId, firingId, stations.get(station)!.id);
          await handler.handle(kitchenTicket, kitchenTicketStream(ticketId), {
            type: 'openTicket', ticketId, orderId, stationId: stations.get(station)!.id, tableId: table?.id ?? null, tableName: table?.name ?? null,
            waiter: waiter.name, firedAt, lines: ls.map((l) => ({ lineId: l.lineId, dishId: l.dishId, dishName: l.name, notes: '' })),
          });
        }
      });
      if (cancelled) {
        const cancelAt = firedAt + rnd.int(2, 6) * MIN;
        at(cancelAt, async () => {
          for (const [station, ls] of byStation) {
            const ticketId = kitchenTicketId(orderId, firingId, stations.get(station)!.id);
            for (const l of ls) await handler.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'cancelLine', lineId: l.lineId, at: cancelAt });
            // What the kitchen process manager does once the order is cancelled.
            await handler.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'closeTicket', reason: 'order_cancelled', at: cancelAt });
          }
          await handler.handle(order, stream, { type: 'changeStatus', to: 'cancelled', at: cancelAt });
          if (table) await handler.handle(seating, tableStream(table.id), { type: 'releaseTable', tableId: table.id, orderId, floor: await onFloor(table.id) });
        });
        return;
      }
      for (const [station, ls] of byStation) {
        const ticketId = kitchenTicketId(orderId, firingId, stations.get(station)!.id);
        const [lo, hi] = stations.get(station)!.minutes;
        // One in eight tickets runs late: a rush, a missing ingredient.
        const slow = rnd.chance(0.12) ? rnd.int(10, 25) : 0;
        let last = firedAt;
        for (const l of ls) {
          const doneAt = firedAt + (rnd.int(lo, hi) + slow) * MIN + rnd.int(0, 59) * 1000;
          last = Math.max(last, doneAt);
          at(doneAt, () => handler.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'markLineDone', lineId: l.lineId, at: doneAt }));
        }
        readyAt = Math.max(readyAt, last);
        // The cook bumps a finished ticket within a few minutes; one in thirty is left on the board
        // (a busy pass), for the process manager to close when the order completes.
        if (!rnd.chance(1 / 30)) {
          const bumpAt = last + rnd.int(0, 3) * MIN + rnd.int(5, 59) * 1000;
          at(bumpAt, () => handler.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'bumpTicket', at: bumpAt }));
        }
      }
      at(firedAt + MIN, () => handler.handle(order, stream, { type: 'changeStatus', to: 'preparing', at: firedAt + MIN }));
      at(readyAt + 1000, () => handler.handle(order, stream, { type: 'changeStatus', to: 'ready', at: readyAt + 1000 }));
      const billAt = Math.max(readyAt + 10 * MIN, seatedAt + stay - 10 * MIN);
      const ticketId = id('ticket');
      const subtotal = lines.reduce((s, l) => s + l.priceCents, 0);
      const method = rnd.weighted(['cash', 'credit_card', 'debit_card', 'lightning'] as const, (m) => ({ cash: 35, credit_card: 35, debit_card: 15, lightning: 15 })[m]);
      const tip = method === 'lightning' ? 0 : Math.round((subtotal * rnd.int(0, 15)) / 100 / 100) * 100;
      const paymentId = id('payment');
      const issue = (ticketId: string, when: number) => async () => {
        await handler.handle(order, stream, { type: 'billLines', bills: [{ billId: `bill-${ticketId}`, ticketIds: [ticketId], lineIds: lines.map((l) => l.lineId) }] });
        await handler.handle(ticket, ticketStream(ticketId), {
          type: 'issueTicket',
          issue: {
            ticketId, orderId, billId: `bill-${ticketId}`, tableId: table?.id ?? null, waiter: waiter.name, currencyId: CURRENCIES.MXN.id,
            lines: lines.map(({ lineId, dishId, priceCents, notes }) => ({ lineId, dishId, priceCents, notes })), share: null, subtotalCents: subtotal, issuedAt: when, issuedBy: waiter.id,
          },
        });
      };
      let billedAt = billAt;
      if (rnd.chance(0.02)) {
        // A bill issued and cancelled before payment (a mistake, a change of plan), then issued again.
        const wrong = id('ticket');
        const reason = rnd.pick(CANCEL_REASONS);
        at(billAt, issue(wrong, billAt));
        at(billAt + MIN, async () => {
          await handler.handle(ticket, ticketStream(wrong), { type: 'cancelTicket', reason, by: managerId, at: billAt + MIN });
          await handler.handle(order, stream, { type: 'releaseTicket', ticketId: wrong });
        });
        billedAt = billAt + 2 * MIN;
      }
      at(billedAt, issue(ticketId, billedAt));
      const paidAt = billedAt + rnd.int(2, 8) * MIN;
      at(paidAt, async () => {
        if (method === 'lightning') {
          // 1 BTC = 1,900,000 pesos at the locked rate: sats = pesos × 100,000,000 / 1,900,000.
          const details: PaymentDetails = { method: 'lightning', sats: Math.round((subtotal / 100) * (1e8 / 1_900_000)), rate: '1900000', paymentHash: idFromKey('hash', paymentId).replaceAll('-', '') };
          await handler.handle(ticket, ticketStream(ticketId), { type: 'recordReceivedPayment', paymentId, amountCents: subtotal, details, shiftId, by: null, at: paidAt });
        } else {
          await handler.handle(ticket, ticketStream(ticketId), { type: 'takePayment', paymentId, method, amountCents: subtotal, tipCents: tip, shiftId, by: waiter.id, at: paidAt });
        }
        await handler.handle(order, stream, { type: 'changeStatus', to: 'completed', at: paidAt + 1000 });
        // The kitchen process manager's close: a no-op for the tickets already bumped.
        for (const station of byStation.keys()) {
          await handler.handle(kitchenTicket, kitchenTicketStream(kitchenTicketId(orderId, firingId, stations.get(station)!.id)), { type: 'closeTicket', reason: 'order_completed', at: paidAt + 1000 });
        }
      });
      if (lines.length > 1 && rnd.chance(0.02)) {
        const voidAt = paidAt + rnd.int(1, 5) * MIN;
        at(voidAt, () => handler.handle(ticket, ticketStream(ticketId), { type: 'voidLine', lineId: lines[lines.length - 1]!.lineId, reason: rnd.pick(VOID_REASONS), refundId: id('refund'), paymentId, shiftId, by: managerId, at: voidAt }));
      } else if (rnd.chance(0.015)) {
        const refundAt = paidAt + rnd.int(1, 10) * MIN;
        const amount = Math.max(100, Math.round(subtotal * 0.3 / 100) * 100);
        at(refundAt, () => handler.handle(ticket, ticketStream(ticketId), { type: 'refundPayment', refundId: id('refund'), paymentId, amountCents: Math.min(amount, subtotal), reason: rnd.pick(REFUND_REASONS), shiftId, by: managerId, at: refundAt }));
      }
      if (table) at(seatedAt + stay, async () => handler.handle(seating, tableStream(table.id), { type: 'releaseTable', tableId: table.id, orderId, floor: await onFloor(table.id) }));
    }
    actions.sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const a of actions) await a.act();
    await options.onDay?.(log, day);
  }
  return log;
}
