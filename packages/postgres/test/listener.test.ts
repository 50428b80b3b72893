import t from 'tap';
import pg from 'pg';
import { listen, postgresAvailable, startPostgres } from '../src/index.js';

if (!postgresAvailable()) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql)');
} else {
  const server = await startPostgres();
  t.teardown(() => server.destroy());
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  t.teardown(() => admin.end());
  const until = async (ok: () => boolean | Promise<boolean>, what: string) => {
    const end = Date.now() + 10_000;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const listeners = async () =>
    (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()")).rows.map((r) => r.pid);

  t.test('everything a process listens to shares one connection, which comes back after the server drops it', async (t) => {
    const got: Record<string, string[]> = { events: [], checkpoints: [] };
    const on: Record<string, boolean[]> = { events: [], checkpoints: [] };
    const events = listen(server.url, 'test_events', { onNotification: (p) => got.events!.push(p), onListening: (l) => on.events!.push(l) });
    const checkpoints = listen(server.url, 'test_checkpoints', { onNotification: (p) => got.checkpoints!.push(p), onListening: (l) => on.checkpoints!.push(l) });
    await until(() => events.listening && checkpoints.listening, 'both listening');
    t.equal((await listeners()).length, 1, 'one LISTEN connection for two channels');
    await admin.query("SELECT pg_notify('test_events', 'e1'), pg_notify('test_checkpoints', 'c1')");
    await until(() => got.events!.length === 1 && got.checkpoints!.length === 1, 'both notified');
    t.same(got, { events: ['e1'], checkpoints: ['c1'] }, 'each hears its own channel only');

    const [pid] = await listeners();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await until(() => on.events!.length >= 3 && on.checkpoints!.length >= 3, 'listening again');
    t.same([on.events, on.checkpoints], [[true, false, true], [true, false, true]], 'each told it stopped, then that it listens again (to read what it missed)');
    await admin.query("SELECT pg_notify('test_events', 'e2')");
    await until(() => got.events!.length === 2, 'notified after the reconnection');

    await events.close();
    await admin.query("SELECT pg_notify('test_events', 'e3'), pg_notify('test_checkpoints', 'c2')");
    await until(() => got.checkpoints!.length === 2, 'the other still hears');
    t.same(got.events, ['e1', 'e2'], 'a closed listener hears nothing more');
    await checkpoints.close();
    await until(async () => (await listeners()).length === 0, 'the connection closed with its last listener');
    t.pass('no LISTEN connection left');
  });
}
