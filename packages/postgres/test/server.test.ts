import t from 'tap';
import { openPool, postgresAvailable, startPostgres } from '../src/index.js';

if (!postgresAvailable()) {
  t.comment('PostgreSQL helper test skipped: no initdb in /usr/lib/postgresql/*/bin (apt-get install postgresql)');
} else {
  t.test('a throwaway cluster starts, keeps committed data across a crash and a restart, and is removed', async (t) => {
    const server = await startPostgres();
    t.teardown(() => server.destroy());
    const pool = openPool(server.url);
    await pool.query('CREATE TABLE kept (n int)');
    await pool.query('INSERT INTO kept VALUES (1), (2)');
    const collation = await pool.query(`SELECT datcollate FROM pg_database WHERE datname = current_database()`);
    t.equal(collation.rows[0].datcollate, 'C', 'strings sort by code point');
    await server.crash();
    await t.rejects(pool.query('SELECT 1'), 'the server is down');
    await server.start();
    const rows = await pool.query('SELECT count(*)::int AS n FROM kept');
    t.equal(rows.rows[0].n, 2, 'committed rows survive an immediate shutdown');
    await pool.end();
    await server.destroy();
    const { existsSync } = await import('node:fs');
    t.notOk(existsSync(server.dataDir), 'the directory is gone');
  });
}
