import { inTransaction, openPool } from '@comanda/postgres';
import type pg from 'pg';
import { ATTEMPTS_TABLE, POSTGRES_DIALECT, admitParams, admitSql, attemptsDdl, refundSql } from './rule.js';
import type { Admission, AttemptCounter, AttemptRule } from './types.js';

/** Serialises replicas creating the table at once (CREATE … IF NOT EXISTS races on the catalog). */
const DDL_LOCK = 7_236_611_004;
const ADMIT_SQL = admitSql(ATTEMPTS_TABLE, POSTGRES_DIALECT);
const REFUND_SQL = refundSql(POSTGRES_DIALECT);

/**
 * Counters shared by every replica of the distributed shape, in `comanda_attempts` (the database of
 * the read models, where they were kept before issue 58: counters written then still count). Each
 * call is one statement: PostgreSQL's row lock on the key orders attempts from every replica. A pool
 * of its own, small: a login is a statement or two.
 */
export class PostgresAttemptCounter implements AttemptCounter {
  private table: Promise<void> | null = null;
  private readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static open(url: string, onError?: (error: unknown) => void): PostgresAttemptCounter {
    return new PostgresAttemptCounter(openPool(url, { max: 4, onError }));
  }

  /** Created at first use; a failure (server not up yet) is not remembered: the next call tries again. */
  private ready(): Promise<void> {
    if (!this.table) {
      const creating = inTransaction(this.pool, async (client) => void (await client.query(attemptsDdl('bigint'))), `BEGIN; SELECT pg_advisory_xact_lock(${DDL_LOCK})`);
      creating.catch(() => this.table === creating && (this.table = null));
      this.table = creating;
    }
    return this.table;
  }

  async admit(key: string, rule: AttemptRule, now: number): Promise<Admission> {
    await this.ready();
    const r = await this.pool.query<{ attempts: string }>(ADMIT_SQL, admitParams(key, rule, now));
    if (r.rows[0]) return { admitted: true, count: Number(r.rows[0].attempts) };
    const locked = await this.pool.query<{ locked_until: string }>(`SELECT locked_until FROM ${ATTEMPTS_TABLE} WHERE key = $1`, [key]);
    // Gone between the two statements (a success forgot it): no wait left.
    return { admitted: false, retryAfterMs: Number(locked.rows[0]?.locked_until ?? now) - now };
  }

  async settle(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void> {
    await this.ready();
    if (how === 'forget') await this.pool.query(`DELETE FROM ${ATTEMPTS_TABLE} WHERE key = $1`, [key]);
    else await this.pool.query(REFUND_SQL, [key, rule.limit]);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
