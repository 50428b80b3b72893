import { TurnBatches } from '@comanda/postgres';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** One document by id, as the prepared statement `<statement>_get` (one text under one name, on every path). */
export const getOne = <T>(db: Queryable, table: string, statement: string, id: string) =>
  db.query<{ id: string; doc: T }>({ name: `${statement}_get`, text: `SELECT id, doc FROM ${table} WHERE id = $1`, values: [id] });

/** Ids one statement asks for at most (ids asked twice count once). */
const MAX_IDS = 200;

interface Wanted {
  table: string;
  statement: string;
  id: string;
  resolve(doc: unknown): void;
  reject(error: unknown): void;
}

/**
 * Document reads by id, asked in one turn of the event loop, as one statement per table
 * (`id = ANY($1)`, the primary key's index) instead of one each, two batches in flight at most
 * (`TurnBatches`). A replica answering ten GETs at once
 * paid a round trip per document: a socket write, waking PostgreSQL's backend and then the reader,
 * which cost more than the lookup. Every read is sent after it was asked, so it sees everything
 * committed before: a waiter released by a checkpoint announcement reads the write it waited for.
 * Callers asking for the same id get the same document (documents are immutable snapshots, as the
 * memory store hands them out).
 */
export class BatchedGets {
  private readonly batches = new TurnBatches<Wanted>((batch) => this.send(batch), MAX_IDS);
  private readonly db: Queryable;

  constructor(db: Queryable) {
    this.db = db;
  }

  get<T>(table: string, statement: string, id: string): Promise<T | null> {
    return new Promise<T | null>((resolve, reject) => this.batches.add({ table, statement, id, resolve: resolve as (doc: unknown) => void, reject }));
  }

  private async send(batch: Wanted[]): Promise<void> {
    const byTable = new Map<string, Wanted[]>();
    for (const w of batch) {
      const list = byTable.get(w.table);
      if (list) list.push(w);
      else byTable.set(w.table, [w]);
    }
    await Promise.all([...byTable.values()].map((wanted) => this.sendTable(wanted)));
  }

  private async sendTable(wanted: Wanted[]): Promise<void> {
    const { table, statement } = wanted[0]!;
    try {
      const ids = [...new Set(wanted.map((w) => w.id))];
      const rows = ids.length === 1
        ? (await getOne(this.db, table, statement, ids[0]!)).rows
        : (await this.db.query<{ id: string; doc: unknown }>({ name: `${statement}_get_many`, text: `SELECT id, doc FROM ${table} WHERE id = ANY($1::text[])`, values: [ids] })).rows;
      const byId = new Map(rows.map((r) => [r.id, r.doc]));
      for (const w of wanted) w.resolve(byId.get(w.id) ?? null);
    } catch (error) {
      for (const w of wanted) w.reject(error);
    }
  }
}
