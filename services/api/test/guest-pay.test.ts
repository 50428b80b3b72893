import t from 'tap';
import { randomBytes } from 'node:crypto';
import { satsForCents } from '@comanda/domain';
import { guestService } from './guest-helpers.js';

const MXN_RATE = '1750000.00';

t.test('a bill\'s guest link shows that bill only, without staff; other, unknown and tampered tokens are 404', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const other = await s.ticketFor(['agua']);
  const link = await s.linkOf(id);
  t.match(link.token, /^[A-Za-z0-9_-]{43}$/, '32 bytes base64url: the id and a 128-bit MAC');
  t.equal(link.path, `/g/${link.token}`);
  t.equal((await s.linkOf(id)).token, link.token, 'the same bill always has the same link');
  t.equal((await s.app.inject({ method: 'GET', url: `/tickets/${id}/guest-link` })).statusCode, 401, 'staff only');

  const res = await s.guest('GET', `/guest/${link.token}`);
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.match(res.body, {
    restaurant: String, currency: 'MXN', status: 'pending', total: 47.5, paid: 0, remaining: 47.5, link_expires_at: null,
    lines: [{ name: String, quantity: 1, total: 25.5 }, { name: String, quantity: 1, total: 22 }],
  });
  const text = JSON.stringify(res.body);
  t.notOk(/Marisol|waiter|order_id|table_id/.test(text), 'no staff names or other ids');

  const otherLink = await s.linkOf(other);
  t.equal((await s.guest('GET', `/guest/${otherLink.token}`)).body.total, 30, 'each link its own bill');
  const otherId = Buffer.from(other.replaceAll('-', ''), 'hex');
  const forged = Buffer.concat([otherId, Buffer.from(link.token, 'base64url').subarray(16)]).toString('base64url');
  for (const token of [forged, randomBytes(32).toString('base64url'), 'nope', `${link.token}x`]) {
    const r = await s.guest('GET', `/guest/${token}`);
    t.equal(r.status, 404, `token ${token.slice(0, 6)}…: 404`);
  }
  t.notOk(s.logs.some((l) => l.includes(link.token)), 'the token is never logged');
  t.ok(s.logs.some((l) => l.includes('/guest/[redacted]')), 'its URL is logged censored');
});

t.test('a guest pays the whole remainder by Lightning: the server prices it, the bill records it, the link runs out 30 min after', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  const bad = await s.guest('POST', `/guest/${token}/lightning`, { share: 'all', amount: 1 });
  t.equal(bad.status, 400, 'an amount from the guest is refused, not trusted');
  t.equal((await s.guest('POST', `/guest/${token}/lightning`, { share: 'all', tip: 5, tip_percent: 10 })).status, 400, 'one tip, not two');
  t.equal((await s.guest('POST', `/guest/${token}/lightning`, { share: 'even' })).status, 400, 'an even share names the guests');

  const inv = await s.guest('POST', `/guest/${token}/lightning`, { share: 'all', tip: 2.5 });
  t.equal(inv.status, 201, JSON.stringify(inv.body));
  t.match(inv.body, { invoice: /^lnbcrt/, amount: 47.5, tip: 2.5, currency: 'MXN', amount_sat: satsForCents(5000, MXN_RATE), rate: 1750000 });
  const status = `/guest/${token}/payments/${inv.body.payment_hash}`;
  t.match((await s.guest('GET', status)).body, { status: 'open', amount: 47.5, tip: 2.5, paid_at: null }, 'unpaid: the invoice\'s figures');
  await s.wallet.payInvoice({ invoice: inv.body.invoice });
  t.equal(await s.arrive(inv.body.payment_hash), true);
  await s.ticket(id);
  const receipt = (await s.guest('GET', status)).body;
  t.match(receipt, { status: 'paid', amount: 47.5, tip: 2.5, held: 0, amount_sat: satsForCents(5000, MXN_RATE), line_ids: [] }, 'the receipt: the payment as the bill took it');
  t.match(receipt.paid_at, /^\d{4}-\d\d-\d\dT/, 'and when it was paid');
  const bill = (await s.guest('GET', `/guest/${token}`)).body;
  t.match(bill, { status: 'paid', paid: 50, remaining: 0, tip: 2.5, payments: [{ method: 'lightning', amount: 47.5, tip: 2.5 }], link_expires_at: String });
  const staff = await s.ticket(id);
  t.match(staff, { status_name: 'paid', payments: [{ method: 'lightning', payment_hash: inv.body.payment_hash }] }, 'on the POS\'s bill');
  const again = await s.guest('POST', `/guest/${token}/lightning`, { share: 'all' });
  t.equal(again.status, 409, 'a paid bill says so');
  t.match(again.body.message, /already paid|Nothing/);

  s.clock.now = Date.parse(bill.link_expires_at);
  t.equal((await s.guest('GET', `/guest/${token}`)).status, 404, 'the link has run out');
  t.equal((await s.guest('GET', status)).status, 404);
});

t.test('a tip of the guest\'s own: zero or more, to the cent, at most the bill\'s total; anything else a 400 naming the tip', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  const ask = (tip: unknown, share: object = { share: 'all' }) => s.guest('POST', `/guest/${token}/lightning`, { ...share, tip });
  for (const [tip, why] of [[-1, 'below zero'], [1.005, 'past the cent'], ['5', 'a string'], [true, 'not a number'], [null, 'null'], [47.51, 'above the bill\'s 47.50'], [4750, 'a slip for 47.50'], [1e300, 'past any amount']] as const) {
    const res = await ask(tip);
    t.equal(res.status, 400, `${why}: 400 (${JSON.stringify(res.body)})`);
    t.match(res.body, { message: 'Validation failed', errors: [{ field: 'tip' }] }, `${why}: the tip is named`);
  }
  t.match((await ask(4750)).body.errors[0].message, /at most 47\.50/, 'the cap is told');
  const even = await ask(47.5, { share: 'even', guests: 3 });
  t.equal(even.status, 201, 'the whole bill\'s total is the cap, even on a share of it');
  t.match(even.body, { amount: 15.84, tip: 47.5 });
  const own = await ask(3.33);
  t.equal(own.status, 201, JSON.stringify(own.body));
  t.match(own.body, { amount: 47.5, tip: 3.33, amount_sat: satsForCents(5083, MXN_RATE) }, 'the server prices the share, the tip is the guest\'s');
  t.match((await ask(0)).body, { amount: 47.5, tip: 0 }, 'no tip');
});

t.test('an even share with a preset tip; two guests racing for the remainder get one invoice, paid once', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  const share = await s.guest('POST', `/guest/${token}/lightning`, { share: 'even', guests: 3, tip_percent: 10 });
  t.equal(share.status, 201, JSON.stringify(share.body));
  t.match(share.body, { amount: 15.84, tip: 1.58 }, '47.50 / 3 rounded up to the cent, 10 % half up');
  await s.wallet.payInvoice({ invoice: share.body.invoice });
  await s.arrive(share.body.payment_hash);
  await s.ticket(id);
  t.equal((await s.guest('GET', `/guest/${token}`)).body.remaining, 31.66);

  const [a, b] = await Promise.all([1, 2].map(() => s.guest('POST', `/guest/${token}/lightning`, { share: 'all' })));
  t.equal(a!.status, 201);
  t.equal(b!.status, 201);
  t.equal(a!.body.payment_hash, b!.body.payment_hash, 'the same remainder at the same moment: one invoice');
  t.equal(a!.body.amount, 31.66);
  await s.wallet.payInvoice({ invoice: a!.body.invoice });
  await t.rejects(s.wallet.payInvoice({ invoice: b!.body.invoice }), 'the second guest cannot pay it again');
  await s.arrive(a!.body.payment_hash);
  const staff = await s.ticket(id);
  t.match(staff, { status_name: 'paid', paid: 47.5 + 1.58, due: 0 });
  t.equal(staff.payments.length, 2);
});

t.test('guest routes are rate-limited per address with 429', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  let last = 0;
  for (let i = 0; i < 120; i++) last = (await s.guest('GET', `/guest/${token}`, undefined, '10.0.0.9')).status;
  t.equal(last, 200, '120 a minute answered');
  const over = await s.guest('GET', `/guest/${token}`, undefined, '10.0.0.9');
  t.equal(over.status, 429);
  t.ok(Number(over.headers['retry-after']) > 0, 'with Retry-After');
  t.equal((await s.guest('GET', `/guest/${token}`, undefined, '10.0.0.10')).status, 200, 'another address is not held back');
  s.clock.now += 60_000;
  t.equal((await s.guest('GET', `/guest/${token}`, undefined, '10.0.0.9')).status, 200, 'a minute later, answered again');
});

t.test('"my items": the chosen lines\' part, refused to a second guest (409) while paid or being paid; the payment is marked a guest\'s', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  const lines = (await s.guest('GET', `/guest/${token}`)).body.lines as Array<{ id: string; total: number }>;
  t.equal((await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: ['nope'] })).status, 400, 'lines of this bill only');
  t.equal((await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines' })).status, 400, 'my items name lines');
  const mine = await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: [lines[0]!.id], tip_percent: 15 });
  t.equal(mine.status, 201, JSON.stringify(mine.body));
  t.match(mine.body, { amount: 25.5, tip: 3.83 });
  const taken = async () => ((await s.guest('GET', `/guest/${token}`)).body.lines as Array<{ taken: unknown }>).map((l) => l.taken);
  t.same(await taken(), ['paying', null], 'the bill says which line another guest is paying, and which is free');
  const twice = await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: [lines[0]!.id, lines[1]!.id] }, '10.0.0.8');
  t.equal(twice.status, 409, 'another guest picking the same line');
  t.match(twice.body.message, /already paid, or being paid by another guest/);
  await s.wallet.payInvoice({ invoice: mine.body.invoice });
  await s.arrive(mine.body.payment_hash);
  const staff = await s.ticket(id);
  t.match(staff, { due: 22, payments: [{ method: 'lightning', amount: 25.5, tip: 3.83, by_guest: true }] }, 'the POS sees a guest\'s payment');
  t.equal((await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: [lines[0]!.id] })).status, 409, 'a paid line, never again');
  t.same(await taken(), ['paid', null], 'and the bill says it is paid');
  t.match((await s.guest('GET', `/guest/${token}/payments/${mine.body.payment_hash}`)).body, { status: 'paid', amount: 25.5, tip: 3.83, line_ids: [lines[0]!.id] }, 'the receipt names the lines paid');
  const rest = await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: [lines[1]!.id] });
  t.match(rest.body, { amount: 22, tip: 0 });
  const cash = await s.waiter('POST', `/tickets/${id}/lightning`, {});
  t.notOk(cash.body.by_guest, 'the staff\'s own checkout is no guest\'s');

  const other = await s.ticketFor();
  const link = await s.linkOf(other);
  const line = (await s.guest('GET', `/guest/${link.token}`)).body.lines[0].id as string;
  const racing = await Promise.all([10, 15].map((tip_percent) => s.guest('POST', `/guest/${link.token}/lightning`, { share: 'lines', line_ids: [line], tip_percent })));
  t.same(racing.map((r) => r.status).sort(), [201, 409], 'two guests picking the same line at once: one invoice, one 409');
  const claimed = await s.guest('GET', `/guest/${link.token}`);
  t.equal(claimed.body.lines[0].taken, 'paying');
  s.clock.now = Date.parse(racing.find((r) => r.status === 201)!.body.expires_at);
  t.equal((await s.guest('GET', `/guest/${link.token}`)).body.lines[0].taken, null, 'an invoice run out unpaid frees its line');
});

t.test('two guests paying the remainder with different tips, both paid: one goes to the bill, the other is held and flagged for staff', async (t) => {
  const s = await guestService(t);
  const id = await s.ticketFor();
  const { token } = await s.linkOf(id);
  const [a, b] = await Promise.all([0, 10].map((tip_percent) => s.guest('POST', `/guest/${token}/lightning`, { share: 'all', tip_percent })));
  t.not(a!.body.payment_hash, b!.body.payment_hash, 'two invoices (the tips differ)');
  await s.wallet.payInvoice({ invoice: a!.body.invoice });
  await s.arrive(a!.body.payment_hash);
  // The second guest's page is told the bill is paid: its invoice is withdrawn (the node cannot cancel it).
  t.match((await s.guest('GET', `/guest/${token}/payments/${b!.body.payment_hash}`)).body, { status: 'withdrawn', paid_at: null });
  t.match((await s.guest('GET', `/guest/${token}/payments/${a!.body.payment_hash}`)).body, { status: 'paid' });
  await s.wallet.payInvoice({ invoice: b!.body.invoice });
  await s.arrive(b!.body.payment_hash);
  t.match((await s.guest('GET', `/guest/${token}/payments/${b!.body.payment_hash}`)).body, { status: 'paid' }, 'paid anyway: paid, and held');
  const staff = await s.ticket(id);
  t.match(staff, { status_name: 'paid', due: 0 });
  const second = staff.payments.find((p: { payment_hash: string }) => p.payment_hash === b!.body.payment_hash);
  t.match(second, { amount: 52.25, overpaid: 52.25, flag: 'ticket_already_paid', by_guest: true }, 'held for a refund, on the manager\'s list');
});
