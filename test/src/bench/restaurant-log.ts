import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { FLOOR_STREAM, floor, order, orderStream, type RecordedLine, seating, tableStream, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, SqliteEventStore } from '@comanda/event-store';

const TABLES = 100;

/**
 * A restaurant's history written through the product's own command handler: a floor of 100 tables,
 * then orders seated at them, each placed with three lines, taken through preparing and ready to
 * completed, and its table released (7 events per order: TableOccupied, OrderPlaced, DishesAdded,
 * three OrderStatusChanged, TableReleased), a table's orders one after another, the 100 tables at once.
 * Days pass at 2,000 orders a day. `grow` extends it; `copyTo` takes a consistent copy of the log so
 * far (SQLite's backup API), so the logs of several sizes cost one generation.
 */
export class RestaurantHistory {
  private orders = 0;
  private written = 0;
  private readonly store: SqliteEventStore;
  private readonly commands: CommandHandler;
  private readonly tables: string[];
  private constructor(
    store: SqliteEventStore,
    commands: CommandHandler,
    tables: string[],
  ) {
    this.store = store;
    this.commands = commands;
    this.tables = tables;
  }

  static async open(file: string): Promise<RestaurantHistory> {
    mkdirSync(dirname(file), { recursive: true });
    const store = new SqliteEventStore({ filename: file });
    const commands = new CommandHandler(store);
    const spaceId = randomUUID();
    await commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId, name: 'Salón' });
    const tables: string[] = [];
    for (let i = 0; i < TABLES; i++) {
      const tableId = randomUUID();
      await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId, name: `Mesa ${i + 1}`, spaceId, status: 'available', orderId: null });
      tables.push(tableId);
    }
    const history = new RestaurantHistory(store, commands, tables);
    history.written = 1 + TABLES;
    return history;
  }

  /** Seats, serves and completes orders until the log holds at least `events` events. */
  async grow(events: number): Promise<{ orders: number; events: number }> {
    const { commands } = this;
    const waiters = Array.from({ length: 8 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
    const day = 86_400_000;
    const epoch = Date.UTC(2025, 0, 1);
    await Promise.all(this.tables.map(async (tableId) => {
      while (this.written < events) {
        const orderId = randomUUID();
        const n = this.orders++;
        this.written += 7;
        const at = epoch + Math.floor((n / 2000) * day);
        const lines: RecordedLine[] = Array.from({ length: 3 }, (_, i) => ({ lineId: randomUUID(), dishId: `00000000-0000-4000-9000-${String((n + i * 7) % 200).padStart(12, '0')}`, priceCents: 1250 + 100 * i, notes: i === 0 ? 'sin cebolla' : '' }));
        const onFloor = (await commands.state(floor, FLOOR_STREAM)).state.tables[tableId] ?? null;
        await commands.handle(seating, tableStream(tableId), { type: 'occupyTable', tableId, orderId, floor: onFloor });
        await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: waiters[n % waiters.length]!, tableId, waiter: `Mesero ${n % waiters.length}`, at, lines: atMenuPrice(lines), authority: ownAuthority(waiters[n % waiters.length]!, 'waiter') });
        for (const [to, minutes] of [['preparing', 2], ['ready', 20], ['completed', 45]] as const) {
          await commands.handle(order, orderStream(orderId), { type: 'changeStatus', to, at: at + minutes * 60_000 });
        }
        await commands.handle(seating, tableStream(tableId), { type: 'releaseTable', tableId, orderId, floor: onFloor });
      }
    }));
    return { orders: this.orders, events: Number((await this.store.headPosition()) ?? 0n) };
  }

  async copyTo(file: string): Promise<void> {
    mkdirSync(dirname(file), { recursive: true });
    await this.store.backupTo(file);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
