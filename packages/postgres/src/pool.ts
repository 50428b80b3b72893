import pg from 'pg';

// int8 (positions, counts) arrives as text; callers turn it into bigint where they need it.

/**
 * A connection pool that survives the server going away: an idle client's error (server restart,
 * network cut) is logged by the caller instead of crashing the process, and the next query opens a
 * fresh connection.
 */
export function openPool(url: string, options: { max?: number; onError?: (error: Error) => void } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  pool.on('error', (error) => options.onError?.(error));
  // A client checked out of the pool has no error listener of the pool's: a server restart while
  // it is held would be an uncaught exception. Its pending query rejects anyway.
  pool.on('connect', (client) => client.on('error', (error) => options.onError?.(error)));
  return pool;
}

/**
 * Runs `work` in a transaction on one client of the pool: COMMIT when it resolves, ROLLBACK when it
 * throws. `begin` may add statements to BEGIN (an advisory lock) in the same round trip. A client
 * that cannot even roll back (server gone) is dropped from the pool instead of reused.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>, begin = 'BEGIN'): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.release(broken);
  }
}
