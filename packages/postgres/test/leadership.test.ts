import t from 'tap';
import { becomeLeader, openPool, postgresAvailable, startPostgres } from '../src/index.js';

if (!postgresAvailable()) {
  t.comment('leadership test skipped: no initdb in /usr/lib/postgresql/*/bin (apt-get install postgresql)');
} else {
  const server = await startPostgres();
  t.teardown(() => server.destroy());

  t.test('one holder at a time; a waiting process takes over within a second of the holder letting go', async (t) => {
    const first = await becomeLeader(server.url, 'kitchen', { everyMs: 200 });
    let standing = false;
    let secondAt = 0;
    const second = becomeLeader(server.url, 'kitchen', { everyMs: 200, onStandby: () => (standing = true) }).then((l) => ((secondAt = Date.now()), l));
    await new Promise((r) => setTimeout(r, 800));
    t.ok(standing, 'the second stands by');
    t.equal(secondAt, 0, 'and has not taken the lead');
    const other = await becomeLeader(server.url, 'another name', { everyMs: 200 });
    t.pass('another name is another lead');
    const releasedAt = Date.now();
    await first.release();
    const taken = await second;
    t.ok(secondAt - releasedAt < 1_000, `taken over in ${secondAt - releasedAt} ms`);
    await taken.release();
    await other.release();
  });

  t.test('the holder\'s connection killed: the lead is free at once, and the holder is told', async (t) => {
    const holder = await becomeLeader(server.url, 'projector', { everyMs: 200 });
    const pool = openPool(server.url);
    t.teardown(() => pool.end());
    await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`);
    const lost = await Promise.race([holder.lost, new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    t.ok(lost instanceof Error, 'the holder learns it lost the lead');
    const next = await Promise.race([becomeLeader(server.url, 'projector', { everyMs: 200 }), new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    t.ok(next, 'another takes it');
    await next?.release();
    await holder.release();
  });

  t.test('a standby asked to stop stops waiting', async (t) => {
    const holder = await becomeLeader(server.url, 'bridge', { everyMs: 200 });
    const stop = new AbortController();
    const waiting = becomeLeader(server.url, 'bridge', { everyMs: 200, signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    await t.rejects(waiting, /stopped while standing by/);
    await holder.release();
  });
}
