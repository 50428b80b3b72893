import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { runCli } from '@comanda/analytics';
import { loadConfig } from '@comanda/config';
import { type RecordedEvent, SqliteEventStore } from '@comanda/event-store';
import { billsService } from './bills-helpers.js';

// Issue 60: the waiters report gives each waiter's covers and hours on the time clock beside sales and
// tips; GET /reports/waiters and `npm run analytics` are one computation, so they agree field by field.

const TZ = 'America/Mexico_City';
const H = 3_600_000;

/** The service's whole log, copied into a SQLite log in a data dir as the CLI reads it. */
async function copyLog(s: Awaited<ReturnType<typeof billsService>>, dir: string): Promise<void> {
  const head = await s.store.headPosition();
  const events: RecordedEvent[] = [];
  await new Promise<void>((done, failed) => {
    const sub = s.store.subscribeToAll(null, {
      onEvents(batch) {
        events.push(...batch);
        if (batch.at(-1)!.position === head) void sub.close().then(done);
      },
      onError: failed,
    });
  });
  const sqlite = new SqliteEventStore({ filename: join(dir, 'events.db') });
  const revisions = new Map<string, number>();
  for (const e of events) {
    await sqlite.append(e.stream, [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }], revisions.has(e.stream) ? revisions.get(e.stream)! : 'no_stream');
    revisions.set(e.stream, e.revision);
  }
  await sqlite.close();
}

t.test('GET /reports/waiters: sales, tips, covers and hours worked per waiter; the CLI prints the same', async (t) => {
  const s = await billsService({ COMANDA_TIMEZONE: TZ });
  t.teardown(s.close);
  const punch = (action: string) => s.app.inject({ method: 'POST', url: '/time-clock/punch', payload: { name: 'waiter-1', pin: '4321', action } });
  // 09:00 in Mexico City: in, a half-hour break at 12:00, out at 15:00: 5.5 hours worked.
  s.clock.now = Date.UTC(2026, 10, 27, 15);
  t.equal((await punch('in')).statusCode, 200);
  s.clock.now += 3 * H;
  t.equal((await punch('break')).statusCode, 200);
  s.clock.now += H / 2;
  t.equal((await punch('back')).statusCode, 200);

  const placed = await s.waiter('POST', '/orders/with-dishes', { order: { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', guests: 4 }, dishes: [{ dish_id: s.r.dishes.pastor }, { dish_id: s.r.dishes.agua }] });
  t.equal(placed.status, 201);
  const [bill] = (await s.waiter('POST', `/orders/${placed.body.id}/tickets`, { split: 'none' })).body.ids as string[];
  t.equal((await s.waiter('POST', `/tickets/${bill}/payments`, { method: 'credit_card', amount: 55.5, tip: 8.25 })).status, 201);
  t.equal((await s.finish(placed.body.id, s.r.tables.t1)).status, 200);
  s.clock.now += 2.5 * H;
  t.equal((await punch('out')).statusCode, 200);

  const until = Date.now() + 5000;
  let route = await s.manager('GET', '/reports/waiters?from=2026-11-27&to=2026-11-27');
  while (Date.now() < until && route.body.sections?.by_waiter?.[0]?.hours_worked !== 5.5) {
    await new Promise((r) => setTimeout(r, 20));
    route = await s.manager('GET', '/reports/waiters?from=2026-11-27&to=2026-11-27');
  }
  t.equal(route.status, 200);
  t.same(route.body.sections.by_waiter, [{
    waiter_id: s.waiterId, waiter: 'waiter-1', orders: 1, sales: 55.5, average_ticket: 55.5, tips: 8.25, unpaid_orders: 0, unpaid: 0, covers: 4, hours_worked: 5.5, break_hours: 0.5,
  }]);
  t.same((await s.manager('GET', '/reports/waiters?from=2026-11-28')).body.sections.by_waiter, [], 'another day: nothing');
  t.equal((await s.waiter('GET', '/reports/waiters')).status, 403, 'a manager\'s report');

  const dir = mkdtempSync(join(tmpdir(), 'comanda-waiters-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await copyLog(s, dir);
  const config = loadConfig({ COMANDA_DATA_DIR: dir, COMANDA_TIMEZONE: TZ, COMANDA_LOG_LEVEL: 'silent' });
  const print = async (...argv: string[]) => {
    let text = '';
    await runCli(['--report', 'waiters', '--from', '2026-11-27', '--to', '2026-11-27', ...argv], config, new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } }));
    return text;
  };
  const cli = JSON.parse(await print('--format', 'json')) as { sections: { by_waiter: Array<Record<string, unknown>> } };
  t.same(cli.sections.by_waiter, route.body.sections.by_waiter, 'the CLI\'s rows are the route\'s, field by field');
  t.match(await print('--format', 'csv'), /^report,section,waiter_id,waiter,orders,sales,average_ticket,tips,unpaid_orders,unpaid,covers,hours_worked,break_hours\r\nwaiters,by_waiter,[-0-9a-f]+,waiter-1,1,55.5,55.5,8.25,0,0,4,5.5,0.5\r\n/, 'and the CSV the screen downloads');
});
