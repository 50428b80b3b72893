import t from 'tap';
import { randomUUID } from 'node:crypto';
import { ticket, ticketStream } from '@comanda/domain';
import { billsService } from './bills-helpers.js';

t.test('open, current, close: the Z report adds up to the cent', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  s.clock.now = Date.UTC(2026, 10, 20, 19, 0);
  // A card payment with no shift open goes into the next shift's report.
  const early = await s.orderWith(['suadero'], null, 'Luis'); // 22.00
  const earlyTicket = (await s.waiter('POST', `/orders/${early.id}/tickets`, { split: 'none' })).body.ids[0];
  t.equal((await s.waiter('POST', `/tickets/${earlyTicket}/payments`, { method: 'debit_card', amount: 22, tip: 2 })).status, 201);
  t.same((await s.waiter('GET', '/shifts/current')).body, { message: 'No open shift' });
  t.equal((await s.waiter('GET', '/shifts/current')).status, 404);

  t.equal((await s.waiter('POST', '/shifts/open', { cash_float: 500 })).status, 403, 'waiters do not open the till');
  s.clock.now += 60_000;
  const opened = await s.manager('POST', '/shifts/open', { cash_float: 500 });
  t.match([opened.status, opened.body], [201, { number: 1, status: 'open', cash_float: 500, closed_at: null, report: null }]);
  const twice = await s.manager('POST', '/shifts/open', { cash_float: 1 });
  t.same([twice.status, twice.body.message], [409, 'Shift 1 is already open; close it first']);

  const o = await s.orderWith(['pastor', 'suadero', 'agua']); // 77.50
  const ids = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 3 })).body.ids; // 25.84, 25.83, 25.83
  await s.waiter('POST', `/tickets/${ids[0]}/payments`, { method: 'cash', amount: 25.84, tendered: 30 });
  await s.waiter('POST', `/tickets/${ids[1]}/payments`, { method: 'credit_card', amount: 25.83 });
  const withTip = await s.waiter('POST', `/tickets/${ids[2]}/payments`, { method: 'credit_card', amount: 25.83, tip: 4.17 });
  const unpaid = await s.orderWith(['agua'], 't2', 'Luis'); // 30.00, billed and left pending
  await s.waiter('POST', `/orders/${unpaid.id}/tickets`, { split: 'none' });
  const walkout = await s.orderWith(['pastor'], 't3', 'Luis'); // 25.50 completed unbilled
  t.equal((await s.finish(walkout.id, s.r.tables.t3, 'completed', 'Luis')).status, 200, 'by default an unpaid order still completes');
  await s.manager('POST', `/tickets/${ids[2]}/refunds`, { payment_id: withTip.body.payment.id, amount: 1.5, reason: 'slow service' });

  const current = await s.manager('GET', '/shifts/current');
  t.match(current.body, { number: 1, report: { sales: 99.5, tips: 6.17, counted_cash: null, difference: null } });

  const closed = await s.manager('POST', '/shifts/close', { counted_cash: 525 });
  t.equal(closed.status, 200);
  t.match(closed.body, { number: 1, status: 'closed' });
  t.same(closed.body.report, {
    sales: 99.5, // 22 (before the shift) + 77.50
    tips: 6.17,
    tips_by_waiter: { 'waiter-1': 6.17 },
    service_charge: 0,
    service_charge_by_staff: {},
    overpaid: 0,
    by_method: {
      debit_card: { count: 1, amount: 22, tip: 2, refunds: 0 },
      cash: { count: 1, amount: 25.84, tip: 0, refunds: 0 },
      credit_card: { count: 2, amount: 51.66, tip: 4.17, refunds: 1.5 },
    },
    refunds: 1.5,
    net: 104.17,
    open: 55.5, // the pending 30.00 ticket and the 25.50 walk-out
    cash_float: 500,
    expected_cash: 525.84,
    counted_cash: 525,
    difference: -0.84,
    taxes_by_rate: [],
    covers: 0, // no guest count was said at seating
  });
  t.same((await s.manager('GET', `/shifts/${closed.body.id}`)).body, closed.body, 'the recorded report, read back');
  const again = await s.manager('POST', '/shifts/close', { counted_cash: 1 });
  t.same([again.status, again.body.message], [409, 'No open shift']);
  s.clock.now += 60_000;
  const next = await s.manager('POST', '/shifts/open', { cash_float: 0 });
  t.match(next.body, { number: 2 });
  const nextClose = await s.admin('POST', '/shifts/close', { counted_cash: 0 });
  t.match(nextClose.body.report, { sales: 0, tips: 0, refunds: 0, expected_cash: 0, difference: 0, open: 30 }, 'nothing counted twice');
});

t.test('shift requests: strict bodies, roles, Idempotency-Key on close', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  t.match((await s.manager('POST', '/shifts/open', { cash_float: '500' })).body, { errors: [{ field: 'cash_float' }] });
  t.match((await s.manager('POST', '/shifts/open', { cash_float: -1 })).body, { errors: [{ field: 'cash_float' }] });
  t.match((await s.manager('POST', '/shifts/open', {})).body, { errors: [{ field: 'cash_float' }] });
  t.match((await s.manager('POST', '/shifts/open', { cash_float: 1, drawer: 2 })).body, { errors: [{ field: 'drawer' }] });
  t.equal((await s.kitchen('GET', '/shifts/current')).status, 403);
  t.equal((await s.manager('GET', '/shifts/00000000-0000-4000-8000-000000000000')).status, 404);
  await s.manager('POST', '/shifts/open', { cash_float: 100 });
  t.equal((await s.waiter('POST', '/shifts/close', { counted_cash: 100 })).status, 403);
  const first = await s.manager('POST', '/shifts/close', { counted_cash: 100 }, { 'idempotency-key': 'close-1' });
  const retry = await s.manager('POST', '/shifts/close', { counted_cash: 100 }, { 'idempotency-key': 'close-1' });
  t.same([first.status, retry.status], [200, 200]);
  t.same(retry.body, first.body);
});

t.test('a cash payment that lands just after its shift closed is counted in the next report, once', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const first = (await s.manager('POST', '/shifts/open', { cash_float: 100 })).body.id;
  const o = await s.orderWith(['pastor']);
  const ticketId = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  t.match((await s.manager('POST', '/shifts/close', { counted_cash: 100 })).body.report, { sales: 0, expected_cash: 100 });
  // The cashier's request read the shift while it was open; its append lands after the close.
  const late = await s.commands.handle(ticket, ticketStream(ticketId), { type: 'takePayment', paymentId: randomUUID(), method: 'cash', amountCents: 2550, tipCents: 0, shiftId: first, by: null, at: s.clock.now });
  await s.app.readYourWrite(late.position);
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  const next = await s.manager('POST', '/shifts/close', { counted_cash: 25.5 });
  t.match(next.body.report, { sales: 25.5, by_method: { cash: { count: 1, amount: 25.5 } }, expected_cash: 25.5, difference: 0 });
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  t.match((await s.manager('POST', '/shifts/close', { counted_cash: 0 })).body.report, { sales: 0, expected_cash: 0 }, 'not counted again');
});

t.test('race: two managers opening shifts at once, one opens', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const [a, b] = await Promise.all([s.manager('POST', '/shifts/open', { cash_float: 1 }), s.admin('POST', '/shifts/open', { cash_float: 2 })]);
  t.same([a.status, b.status].sort(), [201, 409]);
});

t.test('currencies and the base currency', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const list = await s.kitchen('GET', '/currencies');
  t.same(list.body.map((c: { acronym: string; decimals: number; base: boolean }) => [c.acronym, c.decimals, c.base]), [['MXN', 2, true], ['USD', 2, false], ['BTC', 8, false]]);
  const usd = list.body[1].id;
  t.equal((await s.manager('PUT', '/base-currency', { currency_id: usd })).status, 403);
  t.match((await s.admin('PUT', '/base-currency', { currency_id: 'EUR' })).body, { errors: [{ field: 'currency_id' }] });
  const o = await s.orderWith(['pastor']);
  const ticket = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  const blocked = await s.admin('PUT', '/base-currency', { currency_id: usd });
  t.same([blocked.status, blocked.body.message], [409, 'The base currency cannot change while tickets are unpaid (1)']);
  await s.waiter('POST', `/tickets/${ticket}/payments`, { method: 'credit_card', amount: 25.5 });
  t.same((await s.admin('PUT', '/base-currency', { currency_id: usd })).body, { message: 'Base currency changed', currency_id: usd });
  t.same((await s.waiter('GET', '/currencies')).body.filter((c: { base: boolean }) => c.base).map((c: { acronym: string }) => c.acronym), ['USD']);
  const later = await s.orderWith(['agua'], 't2');
  t.equal((await s.waiter('POST', `/orders/${later.id}/tickets`, { split: 'none' })).body.tickets[0].currency_id, usd, 'new tickets in the new base');
  t.equal((await s.waiter('GET', `/tickets/${ticket}`)).body.currency_id, list.body[0].id, 'old tickets keep theirs');
});

t.test('receipts: 42 columns of text, or HTML; the restaurant name is configurable', async (t) => {
  const s = await billsService({ COMANDA_RESTAURANT_NAME: 'Taquería <La Esquina>' });
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  const o = await s.orderWith(['pastor', 'agua']);
  const id = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 55.5, tip: 4.5, tendered: 100 });
  const text = await s.waiter('GET', `/tickets/${id}/receipt`);
  t.equal(text.status, 200);
  t.match(text.headers['content-type'], /^text\/plain/);
  const lines = (text.body as string).trimEnd().split('\n');
  t.ok(lines.every((l) => l.length <= 42), 'no line wider than 42 columns');
  t.match(lines[0], /Taquería <La Esquina>/);
  t.ok(lines.includes(`Taco al pastor${' '.repeat(42 - 'Taco al pastor'.length - 5)}25.50`));
  for (const [label, value] of [['Subtotal', '55.50'], ['Tip', '4.50'], ['TOTAL', '60.00'], ['Cash', '60.00'], ['  Tendered', '100.00'], ['  Change', '40.00']]) {
    t.ok(lines.includes(label + ' '.repeat(42 - label.length - value.length) + value), `${label} ${value}`);
  }
  t.match(lines.join('\n'), /Table T1/);
  t.match(lines.join('\n'), /PAID/);
  const html = await s.waiter('GET', `/tickets/${id}/receipt`, undefined, { accept: 'text/html' });
  t.match(html.headers['content-type'], /^text\/html/);
  t.match(html.body, /<h1>Taquería &lt;La Esquina&gt;<\/h1>/);
  t.match(html.body, /<span>  Change<\/span><span>40.00<\/span>/);
  t.equal((await s.waiter('GET', '/tickets/00000000-0000-4000-8000-000000000000/receipt')).status, 404);
  t.equal((await s.kitchen('GET', `/tickets/${id}/receipt`)).status, 403);
});

t.test('COMANDA_COMPLETE_REQUIRES_PAYMENT: completing needs every line on a paid ticket', async (t) => {
  const s = await billsService({ COMANDA_COMPLETE_REQUIRES_PAYMENT: 'true' });
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'agua']);
  const refused = await s.finish(o.id, s.r.tables.t1);
  t.same([refused.status, (refused.body as { message: string }).message], [409, 'The order cannot be completed before it is paid: 55.50 due']);
  const [a] = o.lines;
  const id = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'lines', groups: [[a]] })).body.ids[0];
  await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 25.5 });
  t.equal(((await s.finish(o.id, s.r.tables.t1)).body as { message: string }).message, 'The order cannot be completed before it is paid: 30.00 due', 'the unbilled line');
  const rest = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  t.equal(((await s.finish(o.id, s.r.tables.t1)).body as { message: string }).message, 'The order cannot be completed before it is paid: 30.00 due', 'billed but unpaid');
  await s.waiter('POST', `/tickets/${rest}/payments`, { method: 'debit_card', amount: 30 });
  t.equal((await s.finish(o.id, s.r.tables.t1)).status, 200);
  t.match((await s.waiter('GET', `/tables/${s.r.tables.t1}`)).body, { status: 'available', order_id: null }, 'completing frees the table as before');
});

t.test('GET /shifts: the shifts opened on a range of days, oldest first, closed ones with their Z reports', async (t) => {
  const s = await billsService({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  s.clock.now = Date.UTC(2026, 10, 20, 19, 0); // 13:00 on the 20th in Mexico City
  const first = (await s.manager('POST', '/shifts/open', { cash_float: 100 })).body.id;
  const o = await s.orderWith(['pastor']);
  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  await s.waiter('POST', `/tickets/${bill}/payments`, { method: 'cash', amount: 25.5 });
  s.clock.now = Date.UTC(2026, 10, 21, 5, 30); // 23:30, still the 20th
  t.equal((await s.manager('POST', '/shifts/close', { counted_cash: 125.5 })).status, 200);
  s.clock.now = Date.UTC(2026, 10, 21, 7, 0); // 01:00 on the 21st
  const second = (await s.manager('POST', '/shifts/open', { cash_float: 50 })).body.id;

  const z = (await s.manager('GET', `/shifts/${first}`)).body;
  const on20 = await s.manager('GET', '/shifts?from=2026-11-20&to=2026-11-20');
  t.equal(on20.status, 200);
  t.same(on20.body, [z], 'the 20th: the shift closed that night, its Z report as GET /shifts/{id} gives it');
  t.match(z, { number: 1, status: 'closed', report: { sales: 25.5, expected_cash: 125.5, counted_cash: 125.5, difference: 0 } });
  t.match((await s.manager('GET', '/shifts?from=2026-11-21')).body, [{ id: second, number: 2, status: 'open', report: null }], 'the 21st: the open shift, no figures here');
  t.same((await s.manager('GET', '/shifts')).body.map((x: { id: string }) => x.id), [first, second], 'without days: every shift, oldest first');
  t.same((await s.manager('GET', '/shifts?to=2026-11-19')).body, [], 'none before');
  t.same((await s.waiter('GET', '/shifts?from=2026-11-20&to=2026-11-20')).body.map((x: { report: unknown }) => x.report), [null], 'a waiter learns there was a shift, not the drawer');
  t.match(await s.manager('GET', '/shifts?from=2026-11-21&to=2026-11-20'), { status: 400, body: { errors: [{ field: 'from', message: 'must not be after to' }] } });
  t.match(await s.manager('GET', '/shifts?from=20-11-2026'), { status: 400 });
});
