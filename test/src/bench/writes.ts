import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import { SqliteEventStore } from '@comanda/event-store';
import { RUN_SECONDS, type Server, f0, load, login } from './load.js';
import type { BenchResult } from './webhooks.js';

/** A database with exactly the product's schema and settings (WAL, synchronous=FULL), opened raw. */
export async function rawEventsDatabase(file: string): Promise<Database> {
  await new SqliteEventStore({ filename: file }).close();
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

/** Raw better-sqlite3: one event row per transaction, serially, for `seconds`. */
async function rawSingleRowTransactions(file: string, seconds: number): Promise<number> {
  const db = await rawEventsDatabase(file);
  const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, 0, ?, ?, ?, ?)');
  const one = db.transaction((i: number) => insert.run(randomUUID(), `order-${i}`, 'DishesAdded', JSON.stringify({ lines: [{ lineId: randomUUID(), dishId: randomUUID(), priceCents: 1250, notes: '' }] }), JSON.stringify({ occurredAt: Date.now(), schemaVersion: 1 }), Date.now()));
  const end = Date.now() + seconds * 1000;
  let n = 0;
  while (Date.now() < end) one(n++);
  db.close();
  return n / seconds;
}

/**
 * `POST /orders/{id}/dishes` with one line over HTTP (10 connections, 50 open orders in turn; each
 * answer waits until its write is readable) against raw better-sqlite3 single-row transactions with
 * the same schema and durability, measured one after the other in the same run.
 */
export async function singleLineWrites(dir: string, product: Server): Promise<BenchResult> {
  const cookie = await login(product.url);
  const json = { cookie, 'content-type': 'application/json' };
  const me = (await (await fetch(`${product.url}/auth/me`, { headers: { cookie } })).json()) as { id: string };
  const dishes = (await (await fetch(`${product.url}/dishes`, { headers: { cookie } })).json()) as Array<{ id: string }>;
  const orders: string[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${product.url}/orders`, { method: 'POST', headers: json, body: JSON.stringify({ user_id: me.id, table_id: null, waiter: 'Bench', status: 'pending', total: 0 }) });
    orders.push(((await res.json()) as { id: string }).id);
  }
  const body = JSON.stringify([{ dish_id: dishes[0]!.id }]);
  const http = await load(product, orders.map((id) => ({ method: 'POST' as const, path: `/orders/${id}/dishes`, body })), 10, { cookie });
  const raw = await rawSingleRowTransactions(join(dir, 'raw-single-row.db'), RUN_SECONDS);
  const ratio = http.requestsPerSecond / raw;
  return {
    measure: 'POST /orders/{id}/dishes, one line, read-your-writes, 10 connections, beside raw better-sqlite3 single-row WAL transactions (same schema, synchronous=FULL)',
    value: `${f0(http.requestsPerSecond)}/s (p99 ${http.p99} ms) vs raw ${f0(raw)}/s: ${ratio.toFixed(2)}×${http.failures ? `, ${http.failures} failed requests` : ''}`,
    target: '≥ 0.25×',
    ok: ratio >= 0.25 && http.failures === 0,
  };
}
