import { createHash } from 'node:crypto';
import type { Database, Statement } from '@comanda/sqlite';
import { fieldValue } from './sqlite-filter.js';
import type { IndexSpec } from './types.js';

// The SQLite read store's tables: one per collection (`rm_<name>`, a JSON document per id) with the
// indexes its readers declared, and the connections that query them.

export const PREFIX = 'rm_';
export const CHECKPOINTS = 'comanda_checkpoints';

export const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export function tableName(collection: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(collection)) throw new Error(`Collection names are letters, digits and _: ${collection}`);
  return `${PREFIX}${collection}`;
}

export const isMissingTable = (error: unknown) => error instanceof Error && /no such table/.test(error.message);

/** A connection and the statements prepared on it (the find queries differ by filter shape: bounded). */
export class Connection {
  private readonly statements = new Map<string, Statement>();
  /** Tables this connection has seen: a collection nothing has written yet is answered empty without an error. */
  private readonly tables = new Set<string>();
  readonly db: Database;
  constructor(db: Database) {
    this.db = db;
    const patterns = new Map<string, RegExp>();
    // JavaScript's RegExp, as the memory store and MongoDB's driver-side regexes mean it.
    db.function('comanda_regexp', { deterministic: true }, (source: unknown, flags: unknown, value: unknown) => {
      if (typeof value !== 'string') return 0;
      const key = `${String(flags)}/${String(source)}`;
      let re = patterns.get(key);
      if (!re) {
        if (patterns.size > 1000) patterns.clear();
        patterns.set(key, (re = new RegExp(String(source), String(flags))));
      }
      return re.test(value) ? 1 : 0;
    });
  }
  /**
   * Whether `table` exists as this connection sees it. Asked before each query of a collection: a
   * missing table used to surface as a thrown SqliteError, and throwing cost a GET on an empty
   * collection (a restaurant with no bills yet) ~60 % of its time.
   */
  hasTable(table: string): boolean {
    if (this.tables.has(table)) return true;
    const found = this.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    if (found) this.tables.add(table);
    return found;
  }

  /** A table seen earlier is gone (a rolled-back creation, a dropped collection). */
  forgetTable(table: string): void {
    this.tables.delete(table);
  }

  prepare(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, (s = this.db.prepare(sql)));
    }
    return s;
  }
}

/** Tables are created on first use with the indexes every caller of `collection(name, …)` declared. */
export class Schema {
  readonly indexes = new Map<string, IndexSpec[]>();
  private readonly ready = new Set<string>();
  private readonly writer: Connection;

  constructor(writer: Connection) {
    this.writer = writer;
    writer.db.exec(`CREATE TABLE IF NOT EXISTS ${CHECKPOINTS} (name TEXT PRIMARY KEY, position TEXT NOT NULL)`);
  }

  declare(collection: string, specs: IndexSpec[]): void {
    const known = this.indexes.get(collection) ?? [];
    const fresh = specs.filter((s) => !known.some((k) => JSON.stringify(k) === JSON.stringify(s)));
    this.indexes.set(collection, [...known, ...fresh]);
    if (fresh.length) this.ready.delete(collection);
  }

  /** CREATE … IF NOT EXISTS of the table and its indexes, once per collection (again after a rollback). */
  ensure(collection: string): string {
    const table = tableName(collection);
    if (this.ready.has(collection)) return table;
    this.writer.db.exec(`CREATE TABLE IF NOT EXISTS ${quote(table)} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    for (const spec of this.indexes.get(collection) ?? []) {
      const fields = Object.entries(spec);
      const index = `${table}_${createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 12)}`;
      const columns = fields.map(([f, dir]) => `${fieldValue(f)}${dir === -1 ? ' DESC' : ''}`).join(', ');
      this.writer.db.exec(`CREATE INDEX IF NOT EXISTS ${quote(index)} ON ${quote(table)} (${columns})`);
    }
    this.ready.add(collection);
    return table;
  }

  /** After a rollback or a drop: DDL may have been undone, so every table is checked again. */
  forget(): void {
    this.ready.clear();
  }
}
