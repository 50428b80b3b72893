import t from 'tap';
import { billsService } from './bills-helpers.js';

async function withTicket(split: unknown = { split: 'none' }) {
  const s = await billsService();
  const o = await s.orderWith(['pastor', 'agua']); // 55.50
  const issued = await s.waiter('POST', `/orders/${o.id}/tickets`, split);
  return { s, o, ids: issued.body.ids as string[], id: issued.body.ids[0] as string };
}

t.test('card with tip: paid in full, status 2, total includes the tip', async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  const res = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5, tip: 8.25 });
  t.equal(res.status, 201);
  t.match(res.body, { message: 'Payment taken', change: 0, payment: { method: 'credit_card', amount: 55.5, tip: 8.25, refunded: 0, shift_id: null } });
  t.match(res.body.ticket, { subtotal: 55.5, tip: 8.25, total: 63.75, paid: 63.75, due: 0, status: 2, status_name: 'paid' });
  t.match(res.body.ticket.paid_at, /Z$/);
  const again = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'debit_card', amount: 1 });
  t.same([again.status, again.body.message], [409, 'The ticket is already paid']);
  t.same((await s.waiter('GET', '/tickets?status=2')).body.map((x: { id: string }) => x.id), [id]);
});

t.test('partial payments; a card over the due is refused; cash needs an open shift and answers the change', async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  const part = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'debit_card', amount: 20 });
  t.match(part.body.ticket, { paid: 20, due: 35.5, status: 1 });
  const over = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 40 });
  t.same([over.status, over.body], [409, { message: 'The amount exceeds the amount due (35.50)' }]);
  const noShift = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 35.5 });
  t.same([noShift.status, noShift.body.message], [409, 'No open shift']);
  t.equal((await s.manager('POST', '/shifts/open', { cash_float: 500 })).status, 201);
  const cash = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 35.5, tendered: 100 });
  t.match([cash.status, cash.body], [201, { change: 64.5, payment: { method: 'cash', amount: 35.5, tendered: 100, change: 64.5 }, ticket: { status: 2, paid: 55.5, due: 0 } }]);
});

t.test('cash over the due becomes change; tendered must cover amount and tip', async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  const short = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 55.5, tip: 5, tendered: 60 });
  t.match([short.status, short.body], [400, { errors: [{ field: 'tendered' }] }]);
  const res = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 60, tip: 4.5 });
  t.match(res.body, { change: 4.5, payment: { amount: 55.5, tip: 4.5, tendered: 64.5, change: 4.5 }, ticket: { total: 60, paid: 60 } });
});

t.test('bad payments: 400 per field, strict JSON types, unknown ticket 404, kitchen 403', async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  const bad = async (body: unknown, field: string) => {
    const res = await s.waiter('POST', `/tickets/${id}/payments`, body);
    t.match([res.status, res.body], [400, { message: 'Validation failed', errors: [{ field }] }], JSON.stringify(body));
  };
  await bad({ method: 'cheque', amount: 1 }, 'method');
  await bad({ method: 'cash' }, 'amount');
  await bad({ method: 'credit_card', amount: 1.005 }, 'amount');
  await bad({ method: 'credit_card', amount: 0 }, 'amount');
  await bad({ method: 'credit_card', amount: -5 }, 'amount');
  await bad({ method: 'credit_card', amount: 5, tip: -1 }, 'tip');
  await bad({ method: 'credit_card', amount: 5, tendered: 10 }, 'tendered');
  await bad({ method: 'credit_card', amount: 5, surcharge: 1 }, 'surcharge');
  await bad({ method: 'credit_card', amount: true }, 'amount');
  await bad({ method: 'credit_card', amount: '5' }, 'amount');
  await bad({ method: 'credit_card', amount: 5, tip: '1' }, 'tip');
  t.equal((await s.waiter('POST', '/tickets/00000000-0000-4000-8000-000000000000/payments', { method: 'credit_card', amount: 1 })).body, 'Resource not found');
  t.equal((await s.kitchen('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 1 })).status, 403);
  t.match((await s.waiter('GET', `/tickets/${id}`)).body, { payments: [], due: 55.5 }, 'nothing half-written');
});

t.test('Idempotency-Key: a retried payment is taken once', async (t) => {
  const { s, ids } = await withTicket({ split: 'even', parts: 2 });
  t.teardown(s.close);
  const pay = () => s.waiter('POST', `/tickets/${ids[0]}/payments`, { method: 'credit_card', amount: 10 }, { 'idempotency-key': 'pay-1' });
  const [a, b] = await Promise.all([pay(), pay()]);
  const c = await pay();
  t.same([a.status, b.status, c.status], [201, 201, 201]);
  t.equal(a.body.payment.id, c.body.payment.id);
  t.equal(b.body.payment.id, c.body.payment.id);
  const ticket = (await s.waiter('GET', `/tickets/${ids[0]}`)).body;
  t.equal(ticket.payments.length, 1);
  t.equal(ticket.paid, 10);
  const different = await s.waiter('POST', `/tickets/${ids[0]}/payments`, { method: 'credit_card', amount: 11 }, { 'idempotency-key': 'pay-1' });
  t.equal(different.status, 409, 'the same key for another request');
});

t.test('race: two cashiers paying the same ticket at once, one payment, the other 409', async (t) => {
  const { s, ids } = await withTicket({ split: 'even', parts: 10 });
  t.teardown(s.close);
  for (const id of ids) {
    const due = (await s.waiter('GET', `/tickets/${id}`)).body.due;
    const [x, y] = await Promise.all([
      s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: due }),
      s.manager('POST', `/tickets/${id}/payments`, { method: 'debit_card', amount: due, tip: 1 }),
    ]);
    t.same([x.status, y.status].sort(), [201, 409]);
    const ticket = (await s.waiter('GET', `/tickets/${id}`)).body;
    t.equal(ticket.payments.length, 1);
    t.equal(ticket.status, 2);
  }
});

t.test('refunds: manager or admin, with a reason, bounded by the payment; cancel after a full refund', async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  const paid = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5, tip: 4.5 });
  const paymentId = paid.body.payment.id;
  t.equal((await s.waiter('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 1, reason: 'x' })).status, 403);
  t.match((await s.manager('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 1 })).body, { errors: [{ field: 'reason' }] });
  t.match((await s.manager('POST', `/tickets/${id}/refunds`, { payment_id: '00000000-0000-4000-8000-000000000000', amount: 1, reason: 'x' })).body, { errors: [{ field: 'payment_id' }] });
  const over = await s.manager('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 60.01, reason: 'cold' });
  t.same([over.status, over.body], [409, { message: 'A refund cannot exceed what is left of that payment (60.00)' }]);
  const part = await s.manager('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 25.5, reason: 'cold tacos' });
  t.equal(part.status, 201);
  t.match(part.body.ticket, { status: 2, paid: 34.5, refunded: 25.5, refunds: [{ payment_id: paymentId, amount: 25.5, reason: 'cold tacos' }] });
  const cannot = await s.manager('POST', `/tickets/${id}/cancel`, { reason: 'void' });
  t.same([cannot.status, cannot.body.message], [409, 'A ticket with payments cannot be cancelled; refund them first']);
  const rest = await s.admin('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 34.5, reason: 'void the bill' });
  t.equal(rest.status, 201);
  t.equal((await s.admin('POST', `/tickets/${id}/refunds`, { payment_id: paymentId, amount: 0.01, reason: 'more' })).status, 409);
  t.match((await s.manager('POST', `/tickets/${id}/cancel`, { reason: 'void' })).body, { status: 3 });
  const events = await s.store.readStream(`ticket-${id}`, 0);
  const refunds = events.filter((e) => e.type === 'PaymentRefunded');
  t.equal(refunds.length, 2);
  t.ok(refunds.every((e) => typeof (e.data as { by: string }).by === 'string' && (e.data as { reason: string }).reason), 'who and why on every refund');
});

t.test('voids over HTTP: manager, reason, refund of a paid line in the same write', async (t) => {
  const { s, o, id } = await withTicket();
  t.teardown(s.close);
  const [pastor, agua] = o.lines as [string, string];
  const paid = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5 });
  t.equal((await s.waiter('POST', `/tickets/${id}/voids`, { line_id: agua, reason: 'spilled' })).status, 403);
  const needsPayment = await s.manager('POST', `/tickets/${id}/voids`, { line_id: agua, reason: 'spilled' });
  t.match([needsPayment.status, needsPayment.body], [400, { errors: [{ field: 'payment_id', message: 'is required: 30.00 was paid for this line' }] }]);
  t.match((await s.manager('POST', `/tickets/${id}/voids`, { line_id: agua, payment_id: paid.body.payment.id })).body, { errors: [{ field: 'reason' }] });
  const voided = await s.manager('POST', `/tickets/${id}/voids`, { line_id: agua, reason: 'spilled', payment_id: paid.body.payment.id });
  t.equal(voided.status, 201);
  t.match(voided.body.ticket, {
    subtotal: 25.5, total: 25.5, paid: 25.5, refunded: 30, due: 0, status: 2,
    voids: [{ line_id: agua, amount: 30, reason: 'spilled' }], refunds: [{ amount: 30, reason: 'void: spilled' }],
  });
  t.same(voided.body.ticket.lines.map((l: { id: string; voided: boolean }) => [l.id, l.voided]).sort(), [[pastor, false], [agua, true]].sort());
  const last = await s.manager('POST', `/tickets/${id}/voids`, { line_id: pastor, reason: 'x', payment_id: paid.body.payment.id });
  t.same([last.status, last.body.message], [409, 'The last line of a ticket cannot be voided; refund and cancel the ticket instead']);
  const receipt = (await s.waiter('GET', `/tickets/${id}/receipt`)).body as string;
  t.match(receipt, /  VOID: spilled +-30\.00/);
});

t.test("a waiter's refund asks for a manager: 403 alone, recorded with who, who approved and why with name and PIN; the bills of a day", async (t) => {
  const { s, id } = await withTicket();
  t.teardown(s.close);
  const paid = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5 });
  const body = { payment_id: paid.body.payment.id, amount: 10.05, reason: 'cold tacos' };
  t.same(await s.waiter('POST', `/tickets/${id}/refunds`, body).then((r) => [r.status, r.body]), [403, { message: "Needs a manager's approval: refunding a payment" }]);
  const wrongPin = await s.waiter('POST', `/tickets/${id}/refunds`, body, { 'x-approval-name': 'manager-1', 'x-approval-pin': '9999' });
  t.same([wrongPin.status, wrongPin.body.message], [403, "Manager's approval refused: wrong name or PIN"]);
  const approved = await s.waiter('POST', `/tickets/${id}/refunds`, body, { 'x-approval-name': 'manager-1', 'x-approval-pin': '4321', 'idempotency-key': 'refund-1' });
  t.equal(approved.status, 201);
  const managerId = (await s.manager('GET', '/auth/me')).body.id as string;
  t.match(approved.body.ticket, { paid: 45.45, refunded: 10.05, refunds: [{ amount: 10.05, reason: 'cold tacos', by: s.waiterId, approved_by: managerId }] });
  const again = await s.waiter('POST', `/tickets/${id}/refunds`, body, { 'x-approval-name': 'manager-1', 'x-approval-pin': '4321', 'idempotency-key': 'refund-1' });
  t.same([again.status, again.body.ticket.refunded], [201, 10.05], 'a retried refund is recorded once');
  const own = await s.manager('POST', `/tickets/${id}/refunds`, { ...body, amount: 0.01 });
  t.match(own.body.ticket.refunds[1], { by: managerId, approved_by: managerId }, "a manager's own refund approves itself");
  const audit = (await s.manager('GET', '/reports/audit')).body.sections.entries as Array<{ kind: string }>;
  t.match(audit.filter((e) => e.kind === 'refund'), [
    { staff: 'waiter-1', approved_by: 'manager-1', reason: 'cold tacos', amount: 10.05 },
    { staff: 'manager-1', approved_by: 'manager-1', reason: 'cold tacos', amount: 0.01 },
  ], 'the audit trail: who refunded, who approved, why');
  const today = new Date().toISOString().slice(0, 10);
  const listed = await s.manager('GET', `/tickets?from=${today}&to=${today}&all=true`);
  t.same(listed.body.map((x: { id: string }) => x.id), [id], "today's bills");
  t.equal((await s.manager('GET', '/tickets?from=2020-01-01&to=2020-01-01')).status, 204, 'none that day');
  t.equal((await s.manager('GET', '/tickets?from=2020-01-02&to=2020-01-01')).status, 400);
});
