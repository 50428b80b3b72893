import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** A write kept on the tablet until the server has answered it. */
export interface Entry {
  seq?: number;
  key: string;
  method: string;
  /** The path and query, e.g. /orders/…/dishes. */
  path: string;
  body: unknown;
  /** The request's own headers (a manager's approval), without the session's. */
  headers: Record<string, string>;
  /** Who made it: it is sent only in their session (the key and what it creates are theirs). */
  userId: string;
  at: number;
  /** What it creates (worked out from the key, as the API does). */
  created: { order?: string; lines?: string[] };
  /** The dishes it names, by id, as the menu called them then: a refusal still names a dish taken off the menu since. */
  dishNames?: Record<string, string>;
}

/** A write the server refused after the screen had moved on: shown until the waiter dismisses it. */
export interface Refusal {
  id?: number;
  entry: Entry;
  status: number;
  message: string;
  at: number;
}

interface Device extends DBSchema {
  outbox: { key: number; value: Entry };
  refusals: { key: number; value: Refusal };
  /** The last good answer of each read, by path and query: what the screens show with no network. */
  reads: { key: string; value: { path: string; body: unknown; at: number } };
}

let db: Promise<IDBPDatabase<Device>> | undefined;

/** The tablet's database (one per origin): the outbox, the refusals and the reads kept. */
export const device = () => (db ??= openDB<Device>('comanda-pos', 1, {
  upgrade(d) {
    d.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
    d.createObjectStore('refusals', { keyPath: 'id', autoIncrement: true });
    d.createObjectStore('reads', { keyPath: 'path' });
  },
}));
