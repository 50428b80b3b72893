import t from 'tap';
import { servedApp } from './harness.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

async function service(t: Tap.Test) {
  const s = await servedApp();
  t.teardown(() => s.close());
  const [admin, manager, waiter, kitchen] = [await s.as('admin'), await s.as('manager'), await s.as('waiter'), await s.as('kitchen')];
  const send = async (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const grill = (await send(admin, 'POST', '/stations', { name: 'Grill' })).body.id as string;
  const bar = (await send(admin, 'POST', '/stations', { name: 'Bar' })).body.id as string;
  return { s, admin, manager, waiter, kitchen, send, grill, bar };
}

const printerBody = (changes: Record<string, unknown> = {}) => ({ name: 'Grill printer', host: '192.168.1.50', port: 9100, paper_width: 80, code_page: 'cp858', ...changes });

t.test('printers: managers and admins add, read, change and remove them; others may not', async (t) => {
  const { admin, manager, waiter, kitchen, send, grill, bar } = await service(t);
  t.equal((await send(manager, 'GET', '/printers')).status, 204, 'none yet');
  t.equal((await send('', 'POST', '/printers', printerBody())).status, 401);
  t.equal((await send(waiter, 'POST', '/printers', printerBody())).status, 403);
  t.equal((await send(kitchen, 'GET', '/printers')).status, 403);
  const added = await send(manager, 'POST', '/printers', printerBody({ name: ' Grill printer ', station_id: grill, station_mode: 'both' }), { 'idempotency-key': 'grill-printer' });
  t.match(added, { status: 201, body: { message: 'Printer added successfully' } });
  const again = await send(manager, 'POST', '/printers', printerBody({ name: ' Grill printer ', station_id: grill, station_mode: 'both' }), { 'idempotency-key': 'grill-printer' });
  t.same([again.status, again.body.id], [201, added.body.id], 'a retried add answers the first');
  const id = added.body.id as string;
  const one = await send(admin, 'GET', `/printers/${id}`);
  t.same(one.body, { id, name: 'Grill printer', host: '192.168.1.50', port: 9100, paper_width: 80, code_page: 'cp858', station_id: grill, station_mode: 'both', till: false, devices: [] });
  t.equal(one.headers.get('etag'), '"1"');
  t.equal((await send(admin, 'GET', `/printers/${id}`, undefined, { 'if-none-match': '"1"' })).status, 304);

  t.match(await send(manager, 'POST', '/printers', printerBody({ name: 'GRILL PRINTER' })), { status: 409, body: { message: 'A printer named Grill printer already exists' } });
  t.match(await send(manager, 'POST', '/printers', printerBody({ name: 'Pass', station_id: grill })), { status: 409, body: { message: "Printer Grill printer already prints this station's tickets" } });
  const till = await send(admin, 'POST', '/printers', printerBody({ name: 'Till', host: 'till.local', paper_width: 58, code_page: 'windows1252', till: true }));
  t.equal(till.status, 201);
  t.match(await send(admin, 'POST', '/printers', printerBody({ name: 'Till 2', till: true })), { status: 409, body: { message: "Printer Till is already the till's printer" } });

  t.equal((await send(admin, 'PUT', `/printers/${id}`, printerBody({ station_id: bar }), { 'if-match': '"2"' })).status, 412);
  t.match(await send(admin, 'PUT', `/printers/${id}`, printerBody({ station_id: bar, port: 9101 }), { 'if-match': '"1"' }), { status: 200, body: { message: 'Printer updated successfully' } });
  t.same((await send(manager, 'GET', '/printers')).body.map((p: { name: string; station_id: string | null; station_mode: string; port: number }) => [p.name, p.station_id, p.station_mode, p.port]),
    [['Grill printer', bar, 'paper', 9101], ['Till', null, 'paper', 9100]], 'by name; a mode not given is paper');
  t.match(await send(admin, 'DELETE', `/printers/${till.body.id}`), { status: 200, body: { message: 'Printer removed successfully' } });
  t.equal((await send(admin, 'GET', `/printers/${till.body.id}`)).status, 404);
  t.equal((await send(admin, 'DELETE', `/printers/${UNKNOWN}`)).status, 404);
  t.equal((await send(admin, 'PUT', `/printers/${UNKNOWN}`, printerBody())).status, 404);
  t.equal((await send(admin, 'GET', '/printers/nope')).body, 'Missing or malformed ID');
});

t.test('bad printer setups are 400 naming the field, and write nothing', async (t) => {
  const { manager, send } = await service(t);
  for (const [changes, field] of [
    [{ port: 0 }, 'port'], [{ port: 65536 }, 'port'], [{ port: '9100' }, 'port'], [{ paper_width: 76 }, 'paper_width'], [{ code_page: 'utf8' }, 'code_page'],
    [{ station_mode: 'sometimes' }, 'station_mode'], [{ host: '' }, 'host'], [{ name: ' ' }, 'name'], [{ colour: 'red' }, 'colour'],
  ] as const) {
    const res = await send(manager, 'POST', '/printers', printerBody(changes));
    t.equal(res.status, 400, JSON.stringify(changes));
    t.match(res.body, { message: 'Validation failed', errors: [{ field }] }, JSON.stringify(changes));
  }
  t.match(await send(manager, 'POST', '/printers', printerBody({ host: 'http://printer' })), { status: 400, body: { errors: [{ field: 'host', message: 'must be a host name or IP address' }] } });
  t.match(await send(manager, 'POST', '/printers', printerBody({ station_id: UNKNOWN })), { status: 400, body: { errors: [{ field: 'station_id', message: 'must reference an existing station' }] } });
  t.equal((await send(manager, 'GET', '/printers')).status, 204, 'nothing was written');
});

t.test('a test page is queued for the printer and shows in the queue with its age and attempts', async (t) => {
  const { admin, manager, waiter, kitchen, send } = await service(t);
  const id = (await send(admin, 'POST', '/printers', printerBody())).body.id as string;
  t.equal((await send(waiter, 'POST', `/printers/${id}/test`)).status, 403);
  t.equal((await send(manager, 'POST', `/printers/${UNKNOWN}/test`)).status, 404);
  const queued = await send(manager, 'POST', `/printers/${id}/test`, undefined, { 'idempotency-key': 'test-1' });
  t.match(queued, { status: 202, body: { message: 'Test page queued' } });
  t.equal((await send(manager, 'POST', `/printers/${id}/test`, undefined, { 'idempotency-key': 'test-1' })).body.id, queued.body.id, 'a retry queues nothing more');
  t.equal((await send(waiter, 'GET', '/printers/jobs')).status, 403, 'the queue is the back office\'s');
  t.equal((await send(kitchen, 'GET', '/printers/jobs')).status, 403, 'the kitchen reads its station\'s only (GET /stations/{id}/paper)');
  const jobs = await send(manager, 'GET', '/printers/jobs');
  t.match(jobs, { status: 200, body: [{ id: queued.body.id, printer_id: id, kind: 'test', title: 'Test page · Grill printer', status: 'queued', attempts: 0, last_error: null, printed_at: null }] });
  t.equal(jobs.body.length, 1);
  t.ok(jobs.body[0].age_seconds >= 0 && jobs.body[0].age_seconds < 60);
  t.same((await send(manager, 'GET', `/printers/jobs?printer_id=${UNKNOWN}`)).body, []);
  t.same((await send(manager, 'GET', '/printers/jobs?status=printed')).body, []);
  t.match(await send(manager, 'GET', '/printers/jobs?status=lost'), { status: 400, body: { errors: [{ field: 'status' }] } });
});
