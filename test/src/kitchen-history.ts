import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MENU_STREAM, idFromKey, kitchenTicket, kitchenTicketId, kitchenTicketStream, menu, order, orderStream, stationOf, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, SqliteEventStore } from '@comanda/event-store';
import { repoRoot } from './standalone-process.js';

const run = promisify(execFile);

/** `npm run demo-data -- --days <days>` into a fresh data dir (its CLI, as a user runs it). */
export async function demoMonth(dataDir: string, days = 30): Promise<void> {
  await run(process.execPath, [join(repoRoot, 'packages/analytics/dist/demo-main.js'), '--days', String(days)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * `count` genuinely open tickets on the demo menu's first station, written into the data dir's log
 * (stopped) through the product's deciders as the API would: an order of two identical dishes and
 * one with notes, fired, its ticket opened. Returns the station's id.
 */
export async function openTickets(dataDir: string, count: number): Promise<string> {
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  try {
    const commands = new CommandHandler(store);
    const { state: m } = await commands.state(menu, MENU_STREAM);
    const stationId = Object.values(m.stations).sort((a, b) => a.seq - b.seq)[0]!.id;
    const dishes = Object.values(m.dishes).filter((d) => stationOf(m, d.id)?.id === stationId);
    const now = Date.now();
    const one = async (i: number) => {
      const orderId = idFromKey('kds-open', String(i));
      const firingId = idFromKey('kds-firing', String(i));
      const ticketId = kitchenTicketId(orderId, firingId, stationId);
      const dish = dishes[i % dishes.length]!;
      const other = dishes[(i + 1) % dishes.length]!;
      const lines = [
        { lineId: idFromKey('kds-line', String(i), 'a'), dishId: dish.id, priceCents: dish.price, notes: '' },
        { lineId: idFromKey('kds-line', String(i), 'b'), dishId: dish.id, priceCents: dish.price, notes: '' },
        { lineId: idFromKey('kds-line', String(i), 'c'), dishId: other.id, priceCents: other.price, notes: 'sin cebolla' },
      ];
      // Fired over the last few hours, oldest first.
      const firedAt = now - (count - i) * 5_000;
      await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'kds', tableId: null, waiter: 'Marisol', at: firedAt, lines: atMenuPrice(lines), authority: ownAuthority('kds', 'waiter') });
      const fired = lines.map((l) => ({ lineId: l.lineId, firingId, dishId: l.dishId, stationId, ticketId, dishName: m.dishes[l.dishId]!.name }));
      await commands.handle(order, orderStream(orderId), { type: 'fireLines', firingId, lines: fired, at: firedAt });
      await commands.handle(kitchenTicket, kitchenTicketStream(ticketId), {
        type: 'openTicket', ticketId, orderId, stationId, tableId: null, tableName: null, waiter: 'Marisol', firedAt,
        lines: fired.map((l, j) => ({ lineId: l.lineId, dishId: l.dishId, dishName: l.dishName, notes: lines[j]!.notes })),
      });
    };
    for (let i = 0; i < count; i += 200) await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, j) => one(i + j)));
    return stationId;
  } finally {
    await store.close();
  }
}
