import t from 'tap';
import { CURRENCIES } from '@comanda/domain';
import { billsService } from './bills-helpers.js';

t.test('one ticket for the whole order; read by id, by order and by status', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'agua']);
  const issued = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' });
  t.equal(issued.status, 201);
  t.equal(issued.body.ids.length, 1);
  const id = issued.body.ids[0];
  t.match(issued.body.tickets[0], {
    id, order_id: o.id, table_id: s.r.tables.t1, waiter: 'waiter-1', subtotal: 55.5, tip: 0, total: 55.5, paid: 0, due: 55.5,
    status: 1, status_name: 'pending', currency_id: CURRENCIES.MXN.id, paid_at: null, share: null, payments: [], refunds: [],
  });
  t.same(issued.body.tickets[0].lines.map((l: { id: string }) => l.id).sort(), [...o.lines].sort());
  const got = await s.waiter('GET', `/tickets/${id}`);
  t.equal(got.status, 200);
  t.equal(got.headers.etag, '"1"');
  t.match(got.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.same((await s.waiter('GET', `/orders/${o.id}/tickets`)).body.map((x: { id: string }) => x.id), [id]);
  t.same((await s.waiter('GET', '/tickets?status=1')).body.map((x: { id: string }) => x.id), [id]);
  t.equal((await s.waiter('GET', '/tickets?status=2')).status, 204, 'no paid tickets: 204');
  const again = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' });
  t.same([again.status, again.body.message], [409, 'The order has no unbilled lines']);
  const other = await s.orderWith(['suadero'], 't2');
  t.equal((await s.waiter('GET', `/orders/${other.id}/tickets`)).status, 204);
});

t.test('even split: parts differ by at most a cent and sum exactly', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'suadero', 'agua']); // 77.50
  const res = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 3 });
  t.equal(res.status, 201);
  const subtotals = res.body.tickets.map((x: { subtotal: number }) => x.subtotal);
  t.same(subtotals, [25.84, 25.83, 25.83]);
  t.same(res.body.tickets.map((x: { share: unknown }) => x.share), [{ part: 1, parts: 3 }, { part: 2, parts: 3 }, { part: 3, parts: 3 }]);
  t.equal(Math.round(subtotals.reduce((a: number, b: number) => a + b, 0) * 100), 7750);
});

t.test('split by lines; a line is billed once; cancelling frees the lines', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'suadero', 'agua']);
  const [a, b, c] = o.lines as [string, string, string];
  const res = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[a], [b, c]] });
  t.equal(res.status, 201);
  t.same(res.body.tickets.map((x: { subtotal: number }) => x.subtotal), [25.5, 52]);
  const removing = await s.waiter('DELETE', `/orders/${o.id}/dishes/${a}`);
  t.same([removing.status, removing.body.message], [409, 'A line on a ticket cannot change; cancel the ticket first']);
  const cancelledOrder = await s.waiter('PUT', `/orders/${o.id}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', status: 'cancelled' });
  t.same([cancelledOrder.status, cancelledOrder.body.message], [409, 'The order has live tickets; cancel them first']);

  t.equal((await s.waiter('POST', `/tickets/${res.body.ids[0]}/cancel`, { reason: 'wrong split' })).status, 403, 'waiters do not cancel tickets');
  const cancelled = await s.manager('POST', `/tickets/${res.body.ids[0]}/cancel`, { reason: 'wrong split' });
  t.match([cancelled.status, cancelled.body], [200, { status: 3, status_name: 'cancelled', due: 0 }]);
  t.same((await s.manager('POST', `/tickets/${res.body.ids[0]}/cancel`, { reason: 'again' })).body.message, 'The ticket is already cancelled');
  const rebill = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' });
  t.equal(rebill.status, 201);
  t.same(rebill.body.tickets[0].lines.map((l: { id: string }) => l.id), [a], 'only the freed line');
  t.same((await s.waiter('GET', '/tickets?status=3')).body.map((x: { id: string }) => x.id), [res.body.ids[0]]);
});

t.test('bad requests: 400 with the field, unknown ids 404, roles', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor']);
  const bad = async (body: unknown, field: string) => {
    const res = await s.waiter('POST', `/orders/${o.id}/tickets`, body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.match(res.body, { message: 'Validation failed', errors: [{ field }] }, JSON.stringify(body));
  };
  await bad({ split: 'even' }, 'parts');
  await bad({ split: 'even', parts: 1 }, 'parts');
  await bad({ split: 'none', parts: 2 }, 'parts');
  await bad({ split: 'lines' }, 'groups');
  await bad({ split: 'lines', groups: [['00000000-0000-4000-8000-000000000000']] }, 'groups');
  await bad({ split: 'thirds' }, 'split');
  await bad({ split: 'none', extra: 1 }, 'extra');
  await bad({ split: 'even', parts: 3000 }, 'parts');
  const tiny = await s.orderWith(['pastor'], 't2');
  t.equal((await s.waiter('POST', `/orders/${tiny.id}/tickets`, { split: 'even', parts: 50 })).status, 201, '25.50 in 50 parts is fine');
  t.equal((await s.waiter('POST', '/orders/00000000-0000-4000-8000-000000000000/tickets', { split: 'none' })).body, 'Resource not found');
  t.equal((await s.waiter('POST', '/orders/nope/tickets', { split: 'none' })).body, 'Missing or malformed ID');
  t.equal((await s.waiter('GET', '/tickets/00000000-0000-4000-8000-000000000000')).status, 404);
  t.equal((await s.waiter('GET', '/orders/00000000-0000-4000-8000-000000000000/tickets')).status, 404);
  t.equal((await s.waiter('GET', '/tickets?status=4')).status, 400);
  t.equal((await s.kitchen('POST', `/orders/${o.id}/tickets`, { split: 'none' })).status, 403);
  t.equal((await s.kitchen('GET', '/tickets')).status, 403);
  const anon = await s.app.inject({ method: 'GET', url: '/tickets' });
  t.equal(anon.statusCode, 401);
  t.equal((await s.manager('POST', '/tickets/00000000-0000-4000-8000-000000000000/cancel', { reason: 'x' })).status, 404);
  t.equal((await s.manager('POST', `/tickets/00000000-0000-4000-8000-000000000000/cancel`, {})).status, 400);
});

t.test('Idempotency-Key: a retried issue answers the same tickets', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'agua']);
  const first = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 2 }, { 'idempotency-key': 'split-1' });
  const retry = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 2 }, { 'idempotency-key': 'split-1' });
  t.equal(first.status, 201);
  t.equal(retry.status, 201);
  t.same(retry.body.ids, first.body.ids);
  t.equal((await s.waiter('GET', '/tickets')).body.length, 2);
  const reused = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' }, { 'idempotency-key': 'split-1' });
  t.equal(reused.status, 409);
});

t.test('race: two splits of one order at once, one wins', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  for (let round = 0; round < 15; round++) {
    const o = await s.orderWith(['pastor', 'suadero', 'agua'], (['t1', 't2', 't3'] as const)[round % 3]);
    const [x, y] = await Promise.all([
      s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 3 }),
      s.manager('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[o.lines[0]], [o.lines[1], o.lines[2]]] }),
    ]);
    t.same([x.status, y.status].sort(), [201, 409], `round ${round}`);
    const live = (await s.waiter('GET', `/orders/${o.id}/tickets`)).body as Array<{ subtotal: number; status: number }>;
    t.equal(Math.round(live.reduce((sum, k) => sum + k.subtotal, 0) * 100), 7750, 'billed exactly once');
    await s.waiter('PUT', `/orders/${o.id}`, { user_id: s.waiterId, table_id: s.r.tables[(['t1', 't2', 't3'] as const)[round % 3]], waiter: 'Marisol', status: 'preparing' });
    await s.waiter('PUT', `/orders/${o.id}`, { user_id: s.waiterId, table_id: s.r.tables[(['t1', 't2', 't3'] as const)[round % 3]], waiter: 'Marisol', status: 'ready' });
    await s.waiter('PUT', `/orders/${o.id}`, { user_id: s.waiterId, table_id: s.r.tables[(['t1', 't2', 't3'] as const)[round % 3]], waiter: 'Marisol', status: 'completed' });
  }
});
