import t from 'tap';
import { type PrintJobQueuing, printJob, printJobStream } from '@comanda/domain';
import { servedApp } from './harness.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

t.test('a station\'s paper: its tickets waiting for its printer, and what the fallback printed while its screen was away; the kitchen reads no other paper', async (t) => {
  const s = await servedApp();
  t.teardown(() => s.close());
  const [admin, kitchen, waiter] = [await s.as('admin'), await s.as('kitchen'), await s.as('waiter')];
  const send = async (cookie: string, method: string, path: string, body?: unknown) => {
    const res = await s.request(path, cookie, {}, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const grill = (await send(admin, 'POST', '/stations', { name: 'Grill' })).body.id as string;
  const bar = (await send(admin, 'POST', '/stations', { name: 'Bar' })).body.id as string;
  t.same((await send(kitchen, 'GET', `/stations/${grill}/paper`)).body, { station_id: grill, printer: null, waiting: [], printed_while_away: null }, 'no printer yet: nothing');

  const printer = (await send(admin, 'POST', '/printers', { name: 'Grill printer', host: '192.168.1.50', port: 9100, paper_width: 80, code_page: 'cp858', station_id: grill, station_mode: 'screen', till: true })).body.id as string;
  let n = 0;
  const queue = async (job: Partial<PrintJobQueuing>, then?: { type: 'recordPrinted'; at: number } | { type: 'recordPrintFailure'; error: string; at: number }) => {
    const jobId = `${String(++n).padStart(8, '0')}-0000-4000-8000-000000000000`;
    let result = await s.commands.handle(printJob, printJobStream(jobId), { type: 'queuePrintJob', jobId, printerId: printer, kind: 'kitchen', title: `T${n} · Grill`, data: '', queuedAt: 0, ...job });
    if (then) result = await s.commands.handle(printJob, printJobStream(jobId), then);
    await s.projector.waitFor(result.position!, 5000);
    return jobId;
  };
  // Yesterday's service: 13 hours ago, so outside the window a screen without a mark is told about.
  const t1 = Date.now() - 13 * 3600_000;
  const t2 = t1 + 17 * 60_000;
  await queue({ stationId: grill, fallback: true, queuedAt: t1 }, { type: 'recordPrinted', at: t1 + 1000 });
  await queue({ stationId: grill, fallback: true, queuedAt: t2 }, { type: 'recordPrinted', at: t2 + 1000 });
  await queue({ stationId: grill, queuedAt: t2 + 5000 }, { type: 'recordPrinted', at: t2 + 6000 });
  const waiting = await queue({ stationId: grill, fallback: true, queuedAt: Date.now() - 90_000 }, { type: 'recordPrintFailure', error: 'out of paper', at: Date.now() });
  await queue({ stationId: bar, queuedAt: Date.now() });
  await queue({ kind: 'bill', title: 'Bill · T4', queuedAt: Date.now() });

  const paper = await send(kitchen, 'GET', `/stations/${grill}/paper?since=${t1 - 60_000}`);
  t.equal(paper.status, 200);
  t.match(paper.body, {
    station_id: grill, printer: { id: printer, name: 'Grill printer' },
    waiting: [{ id: waiting, title: 'T4 · Grill', attempts: 1, last_error: 'out of paper' }],
    printed_while_away: { count: 2, first_at: t1, last_at: t2 },
  }, 'its ticket waiting (not the bar\'s, not the bill on the same printer); two printed by the fallback, not the one printed with its screen there');
  t.equal(paper.body.waiting.length, 1);
  t.ok(paper.body.waiting[0].age_seconds >= 90 && paper.body.waiting[0].age_seconds < 150, `its age (${paper.body.waiting[0].age_seconds} s)`);
  t.match((await send(kitchen, 'GET', `/stations/${grill}/paper?since=${t1}`)).body, { printed_while_away: { count: 1, first_at: t2, last_at: t2 } }, 'after the first: the second only');
  t.equal((await send(kitchen, 'GET', `/stations/${grill}/paper?since=${t2}`)).body.printed_while_away, null, 'dismissed up to the last: none');
  t.equal((await send(kitchen, 'GET', `/stations/${grill}/paper`)).body.printed_while_away, null, 'without `since`, the last 12 hours only');
  t.same((await send(kitchen, 'GET', `/stations/${bar}/paper`)).body.waiting.map((j: { title: string }) => j.title), ['T5 · Grill'], 'the bar\'s own');

  t.equal((await send(waiter, 'GET', `/stations/${grill}/paper`)).status, 403, 'a waiter reads no station\'s paper');
  t.equal((await send('', 'GET', `/stations/${grill}/paper`)).status, 401);
  t.equal((await send(kitchen, 'GET', `/stations/${UNKNOWN}/paper`)).status, 404);
  t.match(await send(kitchen, 'GET', `/stations/${grill}/paper?since=yesterday`), { status: 400, body: { errors: [{ field: 'since' }] } });
  t.equal((await send(kitchen, 'GET', '/printers/jobs')).status, 403, 'the whole queue (bills too) is the back office\'s');
});
