import { Sqlite, type Database, type Statement } from '@comanda/sqlite';

export interface VerifyReport {
  ok: boolean;
  events: number;
  streams: number;
  head: bigint | null;
  /** The first problem found, when not ok. */
  problem?: string;
}

interface Row {
  position: number | bigint;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

/**
 * Reads the whole SQLite event log and checks what the rest of the system assumes of it: the file is
 * sound, every event parses, global positions run 1, 2, 3 … without a gap, and each stream's revisions
 * run 0, 1, 2 … in log order. Stops at the first problem. Opens the file read-only, so it may run
 * beside a live standalone (WAL readers never block the writer).
 */
export function verifyEventLog(file: string): VerifyReport {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const integrity = db.pragma('quick_check', { simple: true }) as string;
    if (integrity !== 'ok') return { ok: false, events: 0, streams: 0, head: null, problem: `the database file is damaged (${integrity})` };
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'").get();
    if (!table) return { ok: false, events: 0, streams: 0, head: null, problem: 'no events table: not a Comanda event log' };
    const revisions = new Map<string, number>();
    let expected = 1n;
    let events = 0;
    const report = (problem: string): VerifyReport => ({ ok: false, events, streams: revisions.size, head: expected - 1n || null, problem });
    // One read transaction: the log cannot move under the check.
    db.exec('BEGIN');
    try {
      for (const row of db.prepare('SELECT position, id, stream, revision, type, data, metadata FROM events ORDER BY position').iterate() as IterableIterator<Row>) {
        const position = BigInt(row.position);
        if (position !== expected) return report(`position ${position} follows ${expected - 1n} (expected ${expected})`);
        const revision = Number(row.revision);
        const next = (revisions.get(row.stream) ?? -1) + 1;
        if (revision !== next) return report(`stream ${row.stream}: revision ${revision} at position ${position} (expected ${next})`);
        if (!row.type) return report(`event at position ${position} has no type`);
        try {
          JSON.parse(row.data);
          const metadata = JSON.parse(row.metadata) as unknown;
          if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new Error('metadata is not an object');
        } catch (error) {
          return report(`event ${row.id} at position ${position} does not parse: ${(error as Error).message}`);
        }
        revisions.set(row.stream, revision);
        expected++;
        events++;
      }
    } finally {
      db.exec('COMMIT');
    }
    return { ok: true, events, streams: revisions.size, head: events === 0 ? null : expected - 1n };
  } finally {
    db.close();
  }
}

/** The one-line verdict the command prints. */
export const verdict = (file: string, r: VerifyReport): string =>
  r.ok
    ? `OK ${file}: ${r.events} events in ${r.streams} streams, head position ${r.head ?? 'none (empty log)'}`
    : `FAILED ${file}: ${r.problem} (after ${r.events} good events)`;
