import t from 'tap';
import { centsForSats, newId, satsForCents } from '@comanda/domain';
import { checkoutService, FIXED_RATES } from './checkout-helpers.js';

const MXN_RATE = '1750000.00';

t.test('GET /currencies/rates: the rates in use, their source and age', async (t) => {
  const s = await checkoutService(t);
  t.equal((await s.app.inject({ method: 'GET', url: '/currencies/rates' })).statusCode, 401);
  const res = await s.waiter('GET', '/currencies/rates');
  t.equal(res.status, 200);
  t.match(res.body, [
    { currency: 'MXN', rate: 1750000, source: 'fixed', fresh: true, age_s: 0, error: null },
    { currency: 'USD', rate: 97000, source: 'fixed', fresh: true },
  ]);
  t.ok(s.logs.some((l) => /"level":40.*FIXED from COMANDA_RATES/.test(l)), 'fixed rates are announced as a warning at start');
});

t.test('POST /tickets/{id}/lightning: the due at the current rate, rounded up; one live invoice per ticket', async (t) => {
  const s = await checkoutService(t, { ...FIXED_RATES, COMANDA_CHECKOUT_EXPIRY_S: '30' });
  t.equal((await checkoutService(t)).config.checkoutExpiryS, 600, 'COMANDA_CHECKOUT_EXPIRY_S defaults to 600');
  const id = await s.ticketFor();
  const first = await s.waiter('POST', `/tickets/${id}/lightning`, {});
  t.equal(first.status, 201, JSON.stringify(first.body));
  const expected = satsForCents(4750, MXN_RATE);
  t.match(first.body, {
    invoice: /^lnbcrt/, payment_hash: /^[0-9a-f]{64}$/, amount_sat: expected, rate: 1750000, rate_source: 'fixed',
    fiat_due: 47.5, tip: 0, currency: 'MXN', ticket_id: id,
  });
  const atNode = await s.node.getIncoming(first.body.payment_hash);
  t.equal(Date.parse(first.body.expires_at) - s.clock.now, 30_000, 'the invoice lives COMANDA_CHECKOUT_EXPIRY_S');
  t.equal(atNode.expiresAt! - atNode.createdAt, 30_000, 'at the node too');
  t.equal(atNode.externalId, id, 'the ticket id is the invoice externalId');
  t.equal(atNode.requestedSat, expected);

  const again = await s.waiter('POST', `/tickets/${id}/lightning`);
  t.equal(again.status, 200, 'asked again while unexpired: the same invoice');
  t.equal(again.body.payment_hash, first.body.payment_hash);
  const both = await Promise.all([1, 2, 3].map(() => s.waiter('POST', `/tickets/${id}/lightning`, { tip: 5 })));
  t.same(new Set(both.map((r) => r.body.payment_hash)).size, 1, 'three taps at once with a tip: one new invoice');
  t.equal(both[0]!.body.amount_sat, satsForCents(5250, MXN_RATE));
  t.equal(both[0]!.body.fiat_due, 52.5);

  s.clock.now += 31_000;
  const later = await s.waiter('POST', `/tickets/${id}/lightning`);
  t.equal(later.status, 201, 'after expiry: a new invoice');
  t.not(later.body.payment_hash, first.body.payment_hash);

  const share = await s.waiter('POST', `/tickets/${id}/lightning`, { amount: 20 });
  t.equal(share.status, 201);
  t.equal(share.body.fiat_due, 20, 'a guest paying a share');
  t.match((await s.waiter('POST', `/tickets/${id}/lightning`, { amount: 47.51 })), { status: 409 }, 'not more than the due');
});

t.test('POST /tickets/{id}/lightning: bad input and roles', async (t) => {
  const s = await checkoutService(t);
  const id = await s.ticketFor();
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, { tip: '5' }), { status: 400, body: { errors: [{ field: 'tip' }] } }, 'a tip as a string');
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, { tip: 1.005 }), { status: 400 }, 'three decimals');
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, { tip: -1 }), { status: 400 });
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, { amount: 0 }), { status: 400 });
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, { tips: 1 }), { status: 400 }, 'an unknown field');
  t.equal((await s.waiter('POST', '/tickets/nope/lightning', {})).status, 400);
  t.equal((await s.waiter('POST', `/tickets/${newId()}/lightning`, {})).status, 404);
  t.equal((await s.kitchen('POST', `/tickets/${id}/lightning`, {})).status, 403);
  t.equal((await s.app.inject({ method: 'POST', url: `/tickets/${id}/lightning` })).statusCode, 401);
  const cancel = await s.manager('POST', `/tickets/${id}/cancel`, { reason: 'wrong table' });
  t.equal(cancel.status, 200);
  t.match(await s.waiter('POST', `/tickets/${id}/lightning`, {}), { status: 409 }, 'a cancelled ticket');
});

t.test('no fresh rate → 503, and no invoice is made at the node', async (t) => {
  const s = await checkoutService(t, { COMANDA_RATE_SOURCE: 'coingecko', COMANDA_RATE_URL: 'http://127.0.0.1:9', COMANDA_RATE_TIMEOUT_MS: '300' });
  const id = await s.ticketFor();
  const before = (await s.node.listIncoming({ all: true })).length;
  const res = await s.waiter('POST', `/tickets/${id}/lightning`, {});
  t.same({ status: res.status, body: res.body }, { status: 503, body: { message: 'No exchange rate available' } });
  t.equal((await s.node.listIncoming({ all: true })).length, before, 'never a 0- or 1-sat invoice');
  const rates = await s.waiter('GET', '/currencies/rates');
  t.match(rates.body, [{ currency: 'MXN', rate: null, fresh: false, source: 'coingecko', error: /unreachable/ }]);
});

t.test('settlement: full, partial then the rest, over, and after the ticket was settled another way', async (t) => {
  const s = await checkoutService(t, { ...FIXED_RATES, COMANDA_LIGHTNING_EXCESS: 'refund' });

  await t.test('paid in full: a Lightning payment at the locked rate, the ticket paid, recorded once', async (t) => {
    const id = await s.ticketFor();
    const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
    await s.wallet.payInvoice({ invoice: inv.invoice });
    t.equal(await s.arrive(inv.payment_hash), true);
    t.equal(await s.arrive(inv.payment_hash), false, 'the same payment hash again (webhook and reconciliation): recorded once');
    const ticket = await s.ticket(id);
    t.match(ticket, { status: 2, paid: 47.5, due: 0, payments: [{ method: 'lightning', amount: 47.5, sats: inv.amount_sat, rate: 1750000, payment_hash: inv.payment_hash }] });
    t.equal(ticket.payments.length, 1);
    t.match(await s.waiter('POST', `/tickets/${id}/lightning`, {}), { status: 409 }, 'a paid ticket has nothing to check out');
  });

  await t.test('a share, then the rest', async (t) => {
    const id = await s.ticketFor();
    const part = (await s.waiter('POST', `/tickets/${id}/lightning`, { amount: 20 })).body;
    await s.wallet.payInvoice({ invoice: part.invoice });
    await s.arrive(part.payment_hash);
    t.match(await s.ticket(id), { status: 1, due: 27.5, paid: 20 });
    const rest = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
    t.equal(rest.fiat_due, 27.5);
    await s.wallet.payInvoice({ invoice: rest.invoice });
    await s.arrive(rest.payment_hash);
    t.match(await s.ticket(id), { status: 2, due: 0, paid: 47.5 });
  });

  await t.test('over-paid: the excess held for a refund and flagged (COMANDA_LIGHTNING_EXCESS=refund)', async (t) => {
    const id = await s.ticketFor();
    const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, { tip: 2.5 })).body;
    const extra = satsForCents(1000, MXN_RATE);
    await s.wallet.payInvoice({ invoice: inv.invoice, amountSat: inv.amount_sat + extra });
    await s.arrive(inv.payment_hash);
    const ticket = await s.ticket(id);
    const held = centsForSats(extra, MXN_RATE) / 100;
    t.equal(held, 10.01, '572 sat at 1,750,000 MXN/BTC, rounded down to the cent');
    t.match(ticket, { status: 2, tip: 2.5, payments: [{ method: 'lightning', overpaid: held, flag: 'overpaid' }] });
    t.equal(ticket.paid, 60.01, '47.50 + 2.50 tip + 10.01 held');
  });

  await t.test('paid by cash meanwhile: the Lightning payment is recorded, held and flagged for a manager', async (t) => {
    await s.manager('POST', '/shifts/open', { cash_float: 100 });
    const id = await s.ticketFor();
    const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
    t.equal((await s.waiter('POST', `/tickets/${id}/payments`, { method: 'cash', amount: 47.5 })).status, 201);
    await s.wallet.payInvoice({ invoice: inv.invoice });
    await s.arrive(inv.payment_hash);
    const ticket = await s.ticket(id);
    t.match(ticket.payments, [{ method: 'cash' }, { method: 'lightning', amount: 47.5, overpaid: 47.5, flag: 'ticket_already_paid' }]);
    const unmatched = await s.manager('GET', '/wallet/unmatched');
    t.match(unmatched.body.find((u: { paymentHash: string }) => u.paymentHash === inv.payment_hash), { ticketId: id, reason: 'ticket_already_paid', amountSat: inv.amount_sat });
  });

  await t.test('an invoice checkout did not make, naming the ticket: recorded in sats and flagged', async (t) => {
    const id = await s.ticketFor();
    const made = await s.node.createInvoice({ description: 'by hand', amountSat: 1234, externalId: id });
    await s.wallet.payInvoice({ invoice: made.serialized });
    t.equal(await s.arrive(made.paymentHash), true);
    t.equal(await s.arrive(made.paymentHash), false);
    t.match(await s.ticket(id), { status: 1, due: 47.5, payments: [] });
    const unmatched = await s.manager('GET', '/wallet/unmatched');
    t.match(unmatched.body.find((u: { paymentHash: string }) => u.paymentHash === made.paymentHash), { ticketId: id, reason: 'unknown_invoice', amountSat: 1234 });
  });
});

t.test('live to waiters: the payment on pos.wallet.payment_received (GET /wallet/events) and the ticket on pos.ticket.*', async (t) => {
  const { Relay, FileCheckpoint } = await import('@comanda/projector');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const pino = (await import('pino')).default;
  const s = await checkoutService(t);
  const dir = mkdtempSync(join(tmpdir(), 'comanda-checkout-relay-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const relay = new Relay(s.store, s.bus, new FileCheckpoint(join(dir, 'relay.checkpoint'), 1), pino({ level: 'silent' }), 'head');
  await relay.start();
  t.teardown(() => relay.stop());
  const subjects: string[] = [];
  await s.bus.subscribe('pos.ticket.>', (m) => void subjects.push(m.subject));
  const announced: Array<{ paymentHash: string; externalId: string }> = [];
  await s.bus.subscribe('pos.wallet.payment_received', (m) => void announced.push(m.payload as never));

  const id = await s.ticketFor();
  const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
  await s.wallet.payInvoice({ invoice: inv.invoice });
  await s.arrive(inv.payment_hash);
  await s.arrive(inv.payment_hash);
  const until = Date.now() + 5000;
  while (!subjects.includes('pos.ticket.TicketPaid') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  t.same(subjects, ['pos.ticket.TicketIssued', 'pos.ticket.LightningInvoiceCreated', 'pos.ticket.PaymentTaken', 'pos.ticket.TicketPaid']);
  t.same(announced.map((a) => [a.paymentHash, a.externalId]), [[inv.payment_hash, id]], 'announced once');
});

t.test('kitchen to cash: with COMANDA_COMPLETE_REQUIRES_PAYMENT an order paid by Lightning completes like any other', async (t) => {
  const s = await checkoutService(t, { ...FIXED_RATES, COMANDA_COMPLETE_REQUIRES_PAYMENT: 'true' });
  const o = await s.orderWith(['pastor'], null);
  const id = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0] as string;
  t.match(await s.finish(o.id, null), { status: 409, body: { message: /25.50 due/ } }, 'unpaid: not completed');
  const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
  await s.wallet.payInvoice({ invoice: inv.invoice });
  await s.arrive(inv.payment_hash);
  await s.ticket(id);
  t.equal((await s.finish(o.id, null)).status, 200, 'paid by Lightning: completed');
});
