import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteEventStore, readSqliteLog, sqliteLogHead, sqliteLogMix } from '../src/index.js';

t.test('a SQLite log read for a replay: only some types, up to a position, a page at a time, read-only', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-reader-')), 'events.db');
  const store = new SqliteEventStore({ filename: file });
  for (let i = 0; i < 25; i++) {
    await store.append(`order-${i}`, [{ id: crypto.randomUUID(), type: 'OrderPlaced', data: { n: i }, metadata: {} }, { id: crypto.randomUUID(), type: i % 5 ? 'DishesAdded' : 'OrderLinesFired', data: { n: i, lines: [1, 2] }, metadata: { occurredAt: i } }], 'no_stream');
  }
  t.equal(sqliteLogHead(file), 50n, 'the head, while the store still has the file open');
  const pages = [];
  // Metadata and the time of recording are looked up while the event's page is folded.
  const extras = new Map<bigint, [Record<string, unknown>, number]>();
  for (const page of readSqliteLog(file, { types: ['OrderLinesFired', 'OrderPlaced', 'OrderPlaced'], upTo: 40n, pageSize: 7 })) {
    pages.push(page);
    for (const e of page) extras.set(e.position, [e.metadata, e.recordedAt]);
  }
  const events = pages.flat();
  t.same(pages.map((p) => p.length), [7, 7, 7, 3], 'pages of at most 7');
  t.ok(events.every((e) => e.type === 'OrderPlaced' || e.type === 'OrderLinesFired'));
  t.equal(events.length, 20 + 4, 'the 20 placed and the 4 fired up to position 40');
  t.ok(events.every((e, i) => e.position <= 40n && (i === 0 || e.position > events[i - 1]!.position)), 'in log order, none past 40');
  t.same(events.find((e) => e.type === 'OrderLinesFired')!.data, { n: 0, lines: [1, 2] });
  t.same(extras.get(events.find((e) => e.type === 'OrderLinesFired')!.position)![0], { occurredAt: 0 });
  t.same(extras.get(events.find((e) => e.type === 'OrderPlaced')!.position)![0], {}, 'metadata read when asked, each event its own');
  t.ok([...extras.values()].every(([, recordedAt]) => typeof recordedAt === 'number' && recordedAt > 0), 'each with the time it was recorded');
  const unread = [...readSqliteLog(file, { types: ['OrderPlaced'], upTo: 5n })].flat();
  t.throws(() => unread[0]!.metadata, /while its page is folded/, 'not once the log was read to its end: a clear error');
  t.same(Object.keys(events[0]!).filter((k) => k === 'id' || k === 'revision'), [], 'a replay reads no ids or revisions');
  t.same({ stream: events[0]!.stream, type: events[0]!.type, position: events[0]!.position }, { stream: 'order-0', type: 'OrderPlaced', position: 1n });
  t.equal(events[0]!.type, 'OrderPlaced');
  t.same([...readSqliteLog(file, { types: [], upTo: 50n })], [], 'no types, nothing read');
  // The last 10 events are orders 20–24: each placed, then fired (20) or with dishes added (21–24).
  const mix = sqliteLogMix(file, 10);
  t.same(Object.fromEntries([...mix].map(([type, m]) => [type, m.events])), { OrderPlaced: 5, DishesAdded: 4, OrderLinesFired: 1 });
  t.equal(mix.get('OrderLinesFired')!.bytes, JSON.stringify({ n: 20, lines: [1, 2] }).length, 'the data\'s bytes');
  await store.close();
  const empty = join(mkdtempSync(join(tmpdir(), 'log-reader-')), 'events.db');
  await new SqliteEventStore({ filename: empty }).close();
  t.equal(sqliteLogHead(empty), null);
  t.throws(() => sqliteLogHead(join(tmpdir(), 'no-such-dir-comanda', 'events.db')), 'a missing file is not created');
});
