import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Database, Sqlite, type Statement } from '@comanda/sqlite';
import { ATTEMPTS_TABLE, SQLITE_DIALECT, admitParams, admitSql, attemptsDdl, named, refundSql } from './rule.js';
import type { Admission, AttemptCounter, AttemptRule } from './types.js';

/**
 * Counters in a SQLite file of their own (the standalone's `<data dir>/attempts.db`): they outlive a
 * restart, and a read-models file moved aside and rebuilt. Its own file, not a table of the read
 * models': a second connection to that file would wait, blocking the event loop, for the projector's
 * transaction of this very process to end. Each call is one statement on one connection: atomic.
 */
export class SqliteAttemptCounter implements AttemptCounter {
  private readonly db: Database;
  private readonly statements: { admit: Statement; locked: Statement<[string], { locked_until: number }>; forget: Statement; refund: Statement };

  constructor(options: { filename: string }) {
    if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
    this.db = new Sqlite(options.filename);
    this.db.pragma('journal_mode = WAL');
    // A power cut may lose the last counts: a few more guesses at most, never a broken file.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(attemptsDdl('INTEGER'));
    this.statements = {
      admit: this.db.prepare(admitSql(ATTEMPTS_TABLE, SQLITE_DIALECT)),
      locked: this.db.prepare(`SELECT locked_until FROM ${ATTEMPTS_TABLE} WHERE key = ?`),
      forget: this.db.prepare(`DELETE FROM ${ATTEMPTS_TABLE} WHERE key = ?`),
      refund: this.db.prepare(refundSql(SQLITE_DIALECT)),
    };
  }

  async admit(key: string, rule: AttemptRule, now: number): Promise<Admission> {
    const row = this.statements.admit.get(named(admitParams(key, rule, now))) as { attempts: number } | undefined;
    if (row) return { admitted: true, count: row.attempts };
    return { admitted: false, retryAfterMs: this.statements.locked.get(key)!.locked_until - now };
  }

  async settle(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void> {
    if (how === 'forget') this.statements.forget.run(key);
    else this.statements.refund.run(named([key, rule.limit]));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
