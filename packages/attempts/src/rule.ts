import type { Admission, AttemptRule } from './types.js';

/**
 * The rule every adapter applies, in one atomic step per call: see `AttemptCounter`. The memory and
 * MongoDB adapters call `admit` and `refund`; the SQL adapters run the same thing as one statement.
 */

/** A key's counter as every adapter stores it. */
export interface Counter {
  count: number;
  windowStart: number;
  lockedUntil: number;
}

/** Doubling stops growing here; the cap `maxLockMs` applies long before. */
const MAX_DOUBLINGS = 30;

/**
 * The rule in one pure step: the SQL adapters compute the same thing in one statement, the memory and
 * MongoDB adapters call this (tested together by the AttemptCounter contract).
 */
export function admit(counter: Counter | null, rule: AttemptRule, now: number): { admission: Admission; next: Counter | null } {
  if (counter && counter.lockedUntil > now) return { admission: { admitted: false, retryAfterMs: counter.lockedUntil - now }, next: counter };
  const windowEnded = !counter || (rule.windowMs !== undefined && now >= counter.windowStart + rule.windowMs);
  const count = windowEnded ? 1 : counter.count + 1;
  const windowStart = windowEnded ? now : counter.windowStart;
  let lockedUntil = 0;
  if (count >= rule.limit) {
    lockedUntil = rule.windowMs !== undefined
      ? windowStart + rule.windowMs
      : now + Math.min(rule.maxLockMs, rule.baseLockMs * 2 ** Math.min(MAX_DOUBLINGS, count - rule.limit));
  }
  return { admission: { admitted: true, count }, next: { count, windowStart, lockedUntil } };
}

/** A success gives its attempt back: the count drops by one and a lock it no longer reaches ends. */
export function refund(counter: Counter | null, rule: AttemptRule): Counter | null {
  if (!counter || counter.count <= 0) return counter;
  const count = counter.count - 1;
  return { count, windowStart: counter.windowStart, lockedUntil: count >= rule.limit ? counter.lockedUntil : 0 };
}

/** Parameters of the SQL form, in this order: key, now, limit, windowMs (0: none), baseLockMs, maxLockMs. */
export const admitParams = (key: string, rule: AttemptRule, now: number) => [key, now, rule.limit, rule.windowMs ?? 0, rule.baseLockMs, rule.maxLockMs];

/** Parameters by name for SQLite (`@p1`…): better-sqlite3 binds a numbered parameter used twice only by name. */
export const named = (values: unknown[]) => Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]));

/** How one SQL dialect writes a parameter, the smaller of two numbers, and a left shift. */
export interface SqlDialect {
  param(n: number, type: 'text' | 'bigint'): string;
  least(a: string, b: string): string;
  shift(value: string, by: string): string;
}

/**
 * `admit` as one upsert for SQLite and PostgreSQL, with the parameters of `admitParams`: it returns a
 * row only when the attempt was admitted (a locked key's row is left alone). Column references in SET
 * are the row's values before the update.
 */
export function admitSql(table: string, sql: SqlDialect): string {
  const [key, now, limit, win, base, max] = [1, 2, 3, 4, 5, 6].map((n) => sql.param(n, n === 1 ? 'text' : 'bigint'));
  const ended = `(${win} > 0 AND ${now} >= ${table}.window_start + ${win})`;
  const count = `(CASE WHEN ${ended} THEN 1 ELSE ${table}.attempts + 1 END)`;
  const start = `(CASE WHEN ${ended} THEN ${now} ELSE ${table}.window_start END)`;
  const lock = (c: string, s: string) =>
    `(CASE WHEN ${c} < ${limit} THEN 0 WHEN ${win} > 0 THEN ${s} + ${win} ELSE ${now} + ${sql.least(max, sql.shift(base, sql.least(String(MAX_DOUBLINGS), `${c} - ${limit}`)))} END)`;
  return `INSERT INTO ${table} (key, attempts, window_start, locked_until) VALUES (${key}, 1, ${now}, ${lock('1', now)})
    ON CONFLICT (key) DO UPDATE SET attempts = ${count}, window_start = ${start}, locked_until = ${lock(count, start)}
    WHERE ${table}.locked_until <= ${now}
    RETURNING attempts`;
}

/** The table both SQL adapters keep counters in (the name the read store used for them before issue 58). */
export const ATTEMPTS_TABLE = 'comanda_attempts';
export const attemptsDdl = (bigint: string) =>
  `CREATE TABLE IF NOT EXISTS ${ATTEMPTS_TABLE} (key TEXT PRIMARY KEY, attempts ${bigint} NOT NULL, window_start ${bigint} NOT NULL, locked_until ${bigint} NOT NULL)`;

/** `refund` in SQL, with the parameters key, limit. */
export const refundSql = (sql: SqlDialect) =>
  `UPDATE ${ATTEMPTS_TABLE} SET attempts = attempts - 1, locked_until = CASE WHEN attempts - 1 >= ${sql.param(2, 'bigint')} THEN locked_until ELSE 0 END
    WHERE key = ${sql.param(1, 'text')} AND attempts > 0`;

export const SQLITE_DIALECT: SqlDialect = { param: (n) => `@p${n}`, least: (a, b) => `min(${a}, ${b})`, shift: (v, by) => `(${v} << ${by})` };
export const POSTGRES_DIALECT: SqlDialect = { param: (n, type) => `$${n}::${type}`, least: (a, b) => `LEAST(${a}, ${b})`, shift: (v, by) => `(${v} << (${by})::int)` };
