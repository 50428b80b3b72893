import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { FLOOR_STREAM, floor, type FloorEvent, seating, tableStream } from '@comanda/domain';
import { CommandHandler, SqliteEventStore, type NewEvent } from '@comanda/event-store';
import type { BenchResult } from './webhooks.js';

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const event = (e: FloorEvent): NewEvent => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { occurredAt: Date.now(), schemaVersion: 1 } });

/**
 * A floor of 100 tables that has seated and released an order `seatings` times (two events each), in
 * the floor stream itself as the code before per-table streams wrote them: the history an upgrade meets.
 */
async function floorLog(file: string, seatings: number): Promise<string[]> {
  const store = new SqliteEventStore({ filename: file });
  const spaceId = randomUUID();
  const tables = Array.from({ length: 100 }, () => randomUUID());
  let revision = -1;
  const append = async (events: FloorEvent[]) => {
    revision = (await store.append(FLOOR_STREAM, events.map(event), revision === -1 ? 'no_stream' : revision)).nextRevision;
  };
  await append([{ type: 'SpaceCreated', data: { spaceId, name: 'Salón' } }, ...tables.map((tableId, i): FloorEvent => ({ type: 'TableAdded', data: { tableId, name: `T${i}`, spaceId, status: 'available', orderId: null } }))]);
  for (let i = 0; i < seatings; i += 500) {
    const batch: FloorEvent[] = [];
    for (let j = i; j < Math.min(seatings, i + 500); j++) {
      const tableId = tables[j % tables.length]!;
      const orderId = randomUUID();
      batch.push({ type: 'TableOccupied', data: { tableId, orderId } }, { type: 'TableReleased', data: { tableId, orderId } });
    }
    await append(batch);
  }
  await store.close();
  return tables;
}

/** Opens the log as after a restart and times the first seating: the floor read, then the table's own stream. */
async function firstSeating(file: string, decider: typeof floor, tableId: string): Promise<number> {
  const store = new SqliteEventStore({ filename: file });
  const handler = new CommandHandler(store);
  const start = process.hrtime.bigint();
  const onFloor = (await handler.state(decider, FLOOR_STREAM)).state.tables[tableId] ?? null;
  await handler.handle(seating, tableStream(tableId), { type: 'occupyTable', tableId, orderId: randomUUID(), floor: onFloor });
  const took = ms(start);
  await store.close();
  return took;
}

/**
 * The first seating after a restart, with the floor's snapshots and without (the same decider with
 * snapshots turned off), at 10k, 100k and 1M events of history in the floor stream, in the same run.
 */
export async function firstCommandAfterRestart(dir: string): Promise<BenchResult[]> {
  const { snapshot: _off, ...withoutSnapshots } = floor;
  const rows: Array<{ events: number; snap: number; full: number }> = [];
  for (const seatings of [5_000, 50_000, 500_000]) {
    const file = join(dir, `floor-${seatings}.db`);
    const tables = await floorLog(file, seatings);
    // The first run writes the snapshot (as the first command after an upgrade would); the next is timed.
    await firstSeating(file, floor, tables[0]!);
    const snaps = [await firstSeating(file, floor, tables[1]!), await firstSeating(file, floor, tables[2]!), await firstSeating(file, floor, tables[3]!)];
    const snap = snaps.sort((a, b) => a - b)[1]!; // the median of three restarts
    const full = await firstSeating(file, withoutSnapshots as typeof floor, tables[4]!);
    rows.push({ events: seatings * 2, snap, full });
  }
  const small = rows[0]!.snap;
  const large = rows[rows.length - 1]!;
  return [{
    measure: 'first seating after a restart, the floor holding 10k / 100k / 1M events of older seatings',
    value: rows.map((r) => `${r.events / 1000}k: ${r.snap.toFixed(1)} ms (without snapshots ${r.full.toFixed(1)} ms)`).join('; '),
    target: '1M within 2× of 10k',
    ok: large.snap <= Math.max(2 * small, small + 5),
  }];
}
