import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FLOOR_STREAM, MENU_STREAM, floor, menu, order, orderStream, type RecordedLine, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, type EventStore, SqliteEventStore } from '@comanda/event-store';

/** Orders a busy restaurant takes in a day: 1k orders are 4 days of history, 100k about a year. */
export const ORDERS_PER_DAY = 300;
const DAY_MS = 86_400_000;

export interface RestaurantShape {
  dishes: number;
  tables: number;
  orders: number;
}

/**
 * Writes a restaurant's history into `<dataDir>/events.db` through the product's own deciders and
 * command handler (the same events the API would append): a menu of `dishes` dishes in 10 categories,
 * `tables` tables in 5 spaces, and `orders` orders of 3 lines each at the tables in turn (the
 * history of the order streams; the floor's seatings are left out), `ORDERS_PER_DAY` a day (UTC)
 * ending today; every order of a past day is completed (4 commands), today's are completed, pending
 * or in the kitchen in turn. A standalone started on the data dir replays it.
 */
export async function writeRestaurantHistory(dataDir: string, shape: RestaurantShape, now = Date.now()): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.db'), recentEvents: 0 });
  try {
    await writeHistoryInto(store, shape, now);
  } finally {
    await store.close();
  }
}

/** The same history written into any event store (PostgreSQL for the distributed shape); the caller closes it. */
export async function writeHistoryInto(store: EventStore, shape: RestaurantShape, now = Date.now(), inFlight = 200): Promise<void> {
  const commands = new CommandHandler(store);
  {
    const categories = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), name: `Category ${i}` }));
    for (const c of categories) await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: c.id, name: c.name });
    const dishes = Array.from({ length: shape.dishes }, (_, i) => ({ id: randomUUID(), price: 500 + (i % 40) * 25 }));
    await Promise.all(dishes.map((d, i) => commands.handle(menu, MENU_STREAM, { type: 'addDish', dishId: d.id, name: `Dish ${i}`, price: d.price, categoryId: categories[i % 10]!.id })));
    const spaces = Array.from({ length: 5 }, () => randomUUID());
    for (const [i, spaceId] of spaces.entries()) await commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId, name: `Space ${i}` });
    const tables = Array.from({ length: shape.tables }, () => randomUUID());
    await Promise.all(tables.map((tableId, i) =>
      commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId, name: `T${i}`, spaceId: spaces[i % 5]!, status: 'available', orderId: null })));

    const waiters = Array.from({ length: 8 }, (_, i) => ({ id: randomUUID(), name: `Waiter ${i}` }));
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const days = Math.ceil(shape.orders / ORDERS_PER_DAY);
    const oneOrder = async (n: number) => {
      // Order n belongs to day (days − 1 − n / ORDERS_PER_DAY) before today, between 11:00 and 23:00.
      const day = today - (days - 1 - Math.floor(n / ORDERS_PER_DAY)) * DAY_MS;
      const at = Math.min(day + 11 * 3_600_000 + Math.floor(((n % ORDERS_PER_DAY) / ORDERS_PER_DAY) * 12 * 3_600_000), now - 60_000);
      const orderId = randomUUID();
      const waiter = waiters[n % waiters.length]!;
      const lines: RecordedLine[] = Array.from({ length: 3 }, (_, j) => {
        const dish = dishes[(n * 7 + j * 13) % dishes.length]!;
        return { lineId: randomUUID(), dishId: dish.id, priceCents: dish.price, notes: '' };
      });
      const stream = orderStream(orderId);
      await commands.handle(order, stream, { type: 'placeOrder', orderId, userId: waiter.id, tableId: tables[n % tables.length] ?? null, waiter: waiter.name, at, lines: atMenuPrice(lines), authority: ownAuthority(waiter.id, 'waiter') });
      const last = day === today ? ['pending', 'preparing', 'ready', 'completed'][n % 4]! : 'completed';
      if (last === 'pending') return;
      for (const to of ['preparing', 'ready', 'completed'] as const) {
        await commands.handle(order, stream, { type: 'changeStatus', to, at: Math.min(at + 20 * 60_000, now) });
        if (to === last) break;
      }
    };
    for (let n = 0; n < shape.orders; n += inFlight) {
      await Promise.all(Array.from({ length: Math.min(inFlight, shape.orders - n) }, (_, i) => oneOrder(n + i)));
    }
  }
}
