import t from 'tap';
import { billsService } from './bills-helpers.js';

// Issue 59: checks as restaurants use them. An item split between checks, lines moved between orders
// and tables, two checks merged, a tip on cash in the Z report.

const approval = (reason: string) => ({ 'x-approval-name': 'manager-1', 'x-approval-pin': '4321', 'x-approval-reason': encodeURIComponent(reason) });
const key = (k: string) => ({ 'idempotency-key': k });

/** The audit trail of one kind once it holds `count` entries (it follows the log a moment after a write). */
async function audit(s: Awaited<ReturnType<typeof billsService>>, kind: string, count: number) {
  const until = Date.now() + 5000;
  let trail = await s.manager('GET', `/audit?kind=${kind}`);
  while (Date.now() < until && !(trail.body.count >= count)) trail = await new Promise((r) => setTimeout(r, 20)).then(() => s.manager('GET', `/audit?kind=${kind}`));
  return trail;
}

t.test('an item split between three checks: each carries its share, the shares add up to the item, each check pays and prints its part', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['agua', 'pastor', 'suadero']); // agua 30.00 shared; 25.50 and 22.00 each one's own
  const [agua, pastor, suadero] = o.lines;
  const issued = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[pastor, agua], [suadero, agua], [agua]] }, key('split-1'));
  t.equal(issued.status, 201);
  t.equal(issued.body.ids.length, 3);
  const checks = issued.body.tickets as Array<{ id: string; total: number; lines: Array<{ id: string; line_total: number; share: unknown }> }>;
  t.same(checks.map((c) => c.lines.map((l) => [l.line_total, l.share])), [
    [[25.5, null], [10, { part: 1, parts: 3 }]],
    [[22, null], [10, { part: 2, parts: 3 }]],
    [[10, { part: 3, parts: 3 }]],
  ]);
  t.same(checks.map((c) => c.total), [35.5, 32, 10]);
  t.equal(checks.reduce((sum, c) => sum + c.total * 100, 0), 7750, 'the checks add up to the order to the cent');
  t.same((await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[pastor, agua], [suadero, agua], [agua]] }, key('split-1'))).body.ids, issued.body.ids, 'a retry: the same checks');

  const receipt = await s.waiter('GET', `/tickets/${checks[2]!.id}/receipt`, undefined, { accept: 'text/plain' });
  t.match(receipt.body, /Agua de jamaica \(3\/3\)\s+10\.00/);
  t.match(await s.manager('POST', `/tickets/${checks[0]!.id}/voids`, { line_id: agua, reason: 'spilt' }), { status: 409, body: { message: /split between checks/ } });
  for (const c of checks) t.equal((await s.waiter('POST', `/tickets/${c.id}/payments`, { method: 'credit_card', amount: c.total })).status, 201);
  t.equal((await s.finish(o.id, s.r.tables.t1)).status, 200, 'paid in full: the order completes');
});

t.test('an item whose price does not divide: the first checks carry the odd cents; a line twice on one check is 400, nothing billed', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'suadero']); // 25.50 over three: 8.50 × 3; 22.00 over three: 7.34, 7.33, 7.33
  const [pastor, suadero] = o.lines;
  t.match(await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[suadero, suadero], [suadero, pastor]] }), { status: 400, body: { errors: [{ field: 'groups' }] } });
  const issued = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[pastor, suadero], [suadero], [suadero]] });
  t.same(issued.body.tickets.map((c: { total: number }) => c.total), [32.84, 7.33, 7.33]);
});

t.test('lines move to another table\'s order; a fired one only with a manager; a billed one not at all; a retry moves nothing twice', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.admin('POST', '/stations', { name: 'Grill' });
  const a = await s.orderWith(['pastor', 'suadero', 'agua'], 't1');
  const b = await s.orderWith(['agua'], 't2');
  const moved = await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[0]], to_order_id: b.id }, key('move-1'));
  t.same([moved.status, moved.body], [200, { message: 'Lines moved', moved: [a.lines[0]] }]);
  t.same((await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[0]], to_order_id: b.id }, key('move-1'))).body, moved.body, 'the same key: the same answer');
  t.equal((await s.waiter('GET', `/orders/${a.id}`)).body.total, 52);
  t.equal((await s.waiter('GET', `/orders/${b.id}`)).body.total, 55.5, 'the pastor is on table 2 now, once');

  t.equal((await s.waiter('POST', `/orders/${a.id}/fire`, undefined)).status < 300, true);
  t.match(await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[1]], to_order_id: b.id }), { status: 403, body: { message: "Needs a manager's approval: move of a line the kitchen has" } });
  t.equal((await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[1]], to_order_id: b.id }, approval('guest changed tables'))).status, 200);
  t.equal((await s.waiter('GET', `/orders/${b.id}`)).body.total, 77.5);
  t.match((await audit(s, 'table_move', 2)).body.entries, [
    { kind: 'table_move', staff: 'waiter-1', approved_by: null, amount: 25.5, order_id: a.id },
    { kind: 'table_move', staff: 'waiter-1', approved_by: 'manager-1', reason: 'guest changed tables', amount: 22, order_id: a.id },
  ], 'each move in the audit trail: who, and who approved the fired one and why');
  const kitchen = (await s.kitchen('GET', '/kitchen/tickets')).body as Array<{ id: string; lines: Array<{ line_id: string; kitchen_status: string }> }>;
  t.same(kitchen.flatMap((k) => k.lines).filter((l) => l.line_id === a.lines[1]).map((l) => l.kitchen_status), ['sent'], 'the kitchen keeps cooking the moved line, not cancelled');
  // On its new order the line says what the kitchen is doing with it, and follows its ticket.
  const onOrder = async (orderId: string) => ((await s.waiter('GET', `/orders/${orderId}/dishes`)).body as Array<{ id: string; kitchen_status: string }>).find((l) => l.id === a.lines[1])?.kitchen_status;
  t.equal(await onOrder(b.id), 'sent', 'the moved line is sent on table 2, not "not sent"');
  const cooking = kitchen.find((k) => k.lines.some((l) => l.line_id === a.lines[1]))!;
  t.equal((await s.kitchen('POST', `/kitchen/tickets/${cooking.id}/start`)).status, 200);
  t.equal(await onOrder(b.id), 'in_progress', 'the kitchen started it: table 2 sees it cooking');
  const refire = await s.waiter('POST', `/orders/${b.id}/fire`, undefined);
  t.equal(refire.status < 500, true);
  const after = (await s.kitchen('GET', '/kitchen/tickets')).body as Array<{ lines: Array<{ line_id: string }> }>;
  t.equal(after.flatMap((k) => k.lines).filter((l) => l.line_id === a.lines[1]).length, 1, 'firing the other order never sends it twice');

  await s.waiter('POST', `/orders/${a.id}/tickets`, { split: 'none' });
  t.match(await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[2]], to_order_id: b.id }, approval('x')), { status: 409, body: { message: 'A line on a ticket cannot change; cancel the ticket first' } });
  t.match(await s.waiter('POST', `/orders/${a.id}/dishes/move`, { line_ids: [a.lines[2]], to_order_id: a.id }), { status: 400 });
});

t.test("two tables' checks merged into one: every line on the first, the second cancelled and its table free", async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const a = await s.orderWith(['pastor'], 't1');
  const b = await s.orderWith(['agua', 'suadero'], 't2');
  const merged = await s.waiter('POST', `/orders/${b.id}/merge`, { into_order_id: a.id }, key('merge-1'));
  t.same([merged.status, merged.body.message, merged.body.moved.length], [200, 'Checks merged', 2]);
  t.same((await s.waiter('POST', `/orders/${b.id}/merge`, { into_order_id: a.id }, key('merge-1'))).body, merged.body, 'a retry: the same answer');
  t.equal((await s.waiter('GET', `/orders/${a.id}`)).body.total, 77.5);
  t.equal((await s.waiter('GET', `/orders/${b.id}`)).body.status, 'cancelled');
  t.match((await s.waiter('GET', `/tables/${s.r.tables.t2}`)).body, { status: 'available', order_id: null });
  t.match(await s.waiter('POST', `/orders/${a.id}/merge`, { into_order_id: b.id }), { status: 409 }, 'into a closed order: refused');
});

t.test('a tip on cash: change given from what is left, the tip in the shift report to the cent', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 100 });
  const o = await s.orderWith(['pastor', 'suadero']); // 47.50
  const [ticket] = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids;
  const paid = await s.waiter('POST', `/tickets/${ticket}/payments`, { method: 'cash', amount: 47.5, tip: 7.13, tendered: 60 });
  t.match(paid, { status: 201, body: { change: 5.37 } });
  t.match((await s.manager('GET', '/shifts/current')).body.report, { sales: 47.5, tips: 7.13, tips_by_waiter: { 'waiter-1': 7.13 }, by_method: { cash: { amount: 47.5, tip: 7.13 } }, expected_cash: 154.63 });
});

t.test('a paid check reopened: refunded and cancelled in one step with a manager\'s name and why; its lines billed again; the shift keeps the sale once', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 100 });
  const o = await s.orderWith(['pastor', 'suadero']); // 47.50
  const [first] = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids;
  await s.waiter('POST', `/tickets/${first}/payments`, { method: 'cash', amount: 47.5, tip: 2.5, tendered: 50 });
  t.match(await s.waiter('POST', `/tickets/${first}/reopen`, { reason: 'forgot the dessert' }), { status: 403, body: { message: "Needs a manager's approval: reopening a paid bill" } });
  const reopened = await s.waiter('POST', `/tickets/${first}/reopen`, { reason: 'forgot the dessert' }, { ...approval('forgot the dessert'), ...key('reopen-1') });
  t.match(reopened, { status: 200, body: { status_name: 'cancelled', paid: 0, refunds: [{ amount: 50, reason: 'reopened: forgot the dessert' }] } });
  t.same((await s.waiter('POST', `/tickets/${first}/reopen`, { reason: 'forgot the dessert' }, { ...approval('forgot the dessert'), ...key('reopen-1') })).body, reopened.body, 'a retry: the same answer, refunded once');
  t.match(await s.manager('POST', `/tickets/${first}/reopen`, { reason: 'again' }), { status: 409 }, 'a cancelled check is not reopened');

  await s.waiter('POST', `/orders/${o.id}/dishes`, [{ dish_id: s.r.dishes.agua }]);
  const again = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' });
  t.equal(again.body.tickets[0].total, 77.5, 'the new bill: the lines again and the dessert');
  await s.waiter('POST', `/tickets/${again.body.ids[0]}/payments`, { method: 'cash', amount: 77.5, tip: 2.5, tendered: 80 });
  // The Z counts payments and refunds apart, as for any refund: what the till kept is the net.
  t.match((await s.manager('GET', '/shifts/current')).body.report, { sales: 125, tips: 5, refunds: 50, net: 80, expected_cash: 180 }, 'kept once: 77.50 + 2.50, and 100 + 50 − 50 + 80 in the drawer');
  t.match((await audit(s, 'bill_cancelled', 1)).body.entries, [{ kind: 'bill_cancelled', staff: 'waiter-1', approved_by: 'manager-1', reason: 'reopened: forgot the dessert', detail: 'reopened' }]);
});
