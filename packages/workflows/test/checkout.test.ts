import t from 'tap';
import { randomBytes } from 'node:crypto';
import { newId, order, orderStream, satsForCents, ticket, ticketStream, ownAuthority } from '@comanda/domain';
import { NodeError, encodeBolt11 } from '@comanda/lightning';
import { ImplausibleRate, checkoutTicket, refundLightningPayment, settleLightningPayment, type CheckoutNode } from '../src/index.js';
import { restaurant } from './restaurant.js';

const KEY = Buffer.from('e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734', 'hex');
const hex = () => randomBytes(32).toString('hex');
const bolt11 = (amountSat?: number, paymentHash = hex()) => ({
  paymentHash,
  serialized: encodeBolt11({ chain: 'regtest', ...(amountSat ? { amountMsat: amountSat * 1000 } : {}), timestampSeconds: Math.floor(Date.now() / 1000), paymentHash, paymentSecret: hex(), description: 'x', expirySeconds: 3600 }, KEY),
});

/** A node that records what it was asked; `pay` decides how a payment goes. */
function fakeNode(pay: (invoice: string) => Promise<{ paymentHash: string; routingFeeSat: number; recipientAmountSat: number }>) {
  const made: string[] = [];
  const paid: string[] = [];
  const outgoing = new Map<string, { isPaid: boolean; fees: number; completedAt?: number }>();
  const node: CheckoutNode = {
    async createInvoice(p) {
      const inv = bolt11(p.amountSat);
      made.push(inv.paymentHash);
      return { ...inv, amountSat: p.amountSat };
    },
    async payInvoice(p) {
      paid.push(p.invoice);
      return pay(p.invoice);
    },
    async getOutgoingByHash(hash) {
      const o = outgoing.get(hash);
      if (!o) throw new NodeError('rejected', 404, 'Not found');
      return o;
    },
  };
  return { node, made, paid, outgoing };
}

async function billed() {
  const r = await restaurant();
  const orderId = newId();
  const ticketId = newId();
  await r.commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: r.ids.waiter, tableId: null, waiter: 'Beto', at: 1, lines: [], authority: ownAuthority(r.ids.waiter, 'waiter') });
  await r.commands.handle(ticket, ticketStream(ticketId), {
    type: 'issueTicket',
    issue: { ticketId, orderId, billId: newId(), tableId: null, waiter: 'Beto', currencyId: 'f1a7c2e0-3b5d-4c8e-9a61-2d4b6e8f0a01', lines: [], share: null, subtotalCents: 10000, issuedAt: 1, issuedBy: null },
  });
  return { ...r, ticketId };
}

const rates = (rate = '1750000.00') => ({ rate: async (currency: string) => ({ currency, rate, source: 'fixed', at: 5 }) });
const settings = { expiryS: 600, excess: 'tip' as const };

t.test('checkout: one invoice while live; none without a plausible rate; settlement once by hash', async (t) => {
  const r = await billed();
  const f = fakeNode(async () => ({ paymentHash: '', routingFeeSat: 0, recipientAmountSat: 0 }));
  let now = 1000;
  const deps = { commands: r.commands, now: () => now, rates: rates(), node: f.node, settings };
  const [a, b] = await Promise.all([checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {}), checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {})]);
  t.equal(a.invoice.paymentHash, b.invoice.paymentHash);
  t.equal(f.made.length, 1, 'two taps at once: one invoice at the node');
  t.equal(a.invoice.amountSat, satsForCents(10000, '1750000.00'));
  t.equal((await checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {})).position, null, 'asked again: the same, nothing written');
  await t.rejects(checkoutTicket({ ...deps, rates: rates('99999999999999') }, r.ticketId, { tipCents: 100 }, {}), ImplausibleRate);
  await t.rejects(checkoutTicket(deps, r.ticketId, { tipCents: 0, amountCents: 10001 }, {}), { kind: 'conflict' });
  now += 600_000;
  const later = await checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {});
  t.not(later.invoice.paymentHash, a.invoice.paymentHash, 'after expiry: a new invoice');

  t.equal(await settleLightningPayment(r.commands, { paymentHash: later.invoice.paymentHash, amountSat: 5, externalId: 'not-a-uuid', timestamp: now }), null);
  t.equal(await settleLightningPayment(r.commands, { paymentHash: later.invoice.paymentHash, amountSat: 5, externalId: newId(), timestamp: now }), null, 'no such ticket');
  const paid = { paymentHash: later.invoice.paymentHash, amountSat: later.invoice.amountSat, externalId: r.ticketId, timestamp: now };
  t.match(await settleLightningPayment(r.commands, paid), { recorded: true });
  t.match(await settleLightningPayment(r.commands, paid), { recorded: false });
  await t.rejects(checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {}), { kind: 'conflict' }, 'paid: nothing to check out');

});

t.test('refunds: sent once; a refusal frees the amount; an unknown outcome is reconciled with the node', async (t) => {
  const r = await billed();
  let outcome: 'ok' | 'refuse' | 'timeout' = 'ok';
  const f = fakeNode(async () => {
    if (outcome === 'refuse') throw new NodeError('payment_failed', 200, 'recipient node is offline or unreachable');
    if (outcome === 'timeout') throw new NodeError('timeout', 0, 'no answer');
    return { paymentHash: '', routingFeeSat: 3, recipientAmountSat: 0 };
  });
  const deps = { commands: r.commands, now: () => 1000, rates: rates(), node: f.node, settings };
  const inv = (await checkoutTicket(deps, r.ticketId, { tipCents: 0 }, {})).invoice;
  await settleLightningPayment(r.commands, { paymentHash: inv.paymentHash, amountSat: inv.amountSat, externalId: r.ticketId, timestamp: 1000 });
  const paymentId = Object.keys((await r.commands.state(ticket, ticketStream(r.ticketId))).state.payments)[0]!;
  const ask = (refundId: string, destination: string, amountCents = 1000) => refundLightningPayment(deps, r.ticketId, { refundId, paymentId, amountCents, valuation: 'then', destination, reason: 'cold' }, {});

  const sats = Math.floor(1000 * 1e6 / 1750000);
  const d1 = bolt11().serialized;
  const sent = await ask('r1', d1);
  t.match(sent.refund, { status: 'sent', sats, feesSat: 3 });
  t.match((await ask('r1', d1)).refund, { status: 'sent', feesSat: 3 }, 'a retry: the same refund');
  t.equal(f.paid.length, 1, 'paid once');
  await t.rejects(ask('r1', bolt11().serialized), { kind: 'conflict' }, 'the id reused for another refund');
  await t.rejects(ask('r9', bolt11(sats + 1).serialized), { kind: 'conflict' }, 'an invoice for another amount');

  outcome = 'refuse';
  const d2 = bolt11(sats).serialized;
  await t.rejects(ask('r2', d2), NodeError);
  await t.rejects(ask('r2', d2), /failed/, 'a refused refund stays failed');

  outcome = 'timeout';
  const d3 = bolt11();
  await t.rejects(ask('r3', d3.serialized), NodeError);
  f.outgoing.set(d3.paymentHash, { isPaid: false, fees: 0 });
  await t.rejects(ask('r3', d3.serialized), /being sent/, 'the node is still trying: 409');
  f.outgoing.set(d3.paymentHash, { isPaid: true, fees: 4000 });
  t.match((await ask('r3', d3.serialized)).refund, { status: 'sent', feesSat: 4 }, 'the node paid it: recorded, not paid again');
  const d4 = bolt11();
  await t.rejects(ask('r4', d4.serialized), NodeError);
  f.outgoing.set(d4.paymentHash, { isPaid: false, fees: 0, completedAt: 5 });
  await t.rejects(ask('r4', d4.serialized), /failed/, 'the node gave up: failed');
  const d5 = bolt11();
  await t.rejects(ask('r5', d5.serialized), NodeError);
  outcome = 'ok';
  const before = f.paid.length;
  t.match((await ask('r5', d5.serialized)).refund, { status: 'sent' }, 'never reached the node (404): sent now');
  t.equal(f.paid.length, before + 1);
  await t.rejects(ask('r6', 'nonsense'), { kind: 'validation' });
  await t.rejects(refundLightningPayment(deps, r.ticketId, { refundId: 'r7', paymentId: newId(), valuation: 'now', destination: d1, reason: 'x' }, {}), { kind: 'validation' });
});

t.test('refund destinations: a Lightning address resolved by LUD-16 for exactly the sats; its failures refused clearly', async (t) => {
  const { createServer } = await import('node:http');
  const { resolveRefundTarget } = await import('../src/index.js');
  let mode: 'ok' | 'error' | 'garbage' | 'wrong-amount' | 'no-pr' = 'ok';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const port = (server.address() as { port: number }).port;
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
    if (url.pathname === '/.well-known/lnurlp/ana') {
      if (mode === 'error') return send({ status: 'ERROR', reason: 'unknown user' });
      if (mode === 'garbage') return send('<html>');
      return send({ tag: 'payRequest', callback: `http://127.0.0.1:${port}/cb`, minSendable: 1000, maxSendable: 100_000_000, metadata: '[]' });
    }
    const msat = Number(url.searchParams.get('amount'));
    if (mode === 'no-pr') return send({ routes: [] });
    return send({ pr: bolt11(mode === 'wrong-amount' ? msat / 1000 + 1 : msat / 1000).serialized, routes: [] });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const address = `ana@127.0.0.1:${(server.address() as { port: number }).port}`;
  const target = await resolveRefundTarget(address, 571, Date.now());
  t.equal(target.amountless, false);
  t.match(target, { invoice: /^lnbcrt/, paymentHash: /^[0-9a-f]{64}$/ });
  await t.rejects(resolveRefundTarget(address, 200_000, Date.now()), /takes 1 to 100000 sat/);
  for (const m of ['error', 'garbage', 'wrong-amount', 'no-pr'] as const) {
    mode = m;
    await t.rejects(resolveRefundTarget(address, 571, Date.now()), { kind: 'conflict' }, m);
  }
  await t.rejects(resolveRefundTarget('ana@127.0.0.1:9', 571, Date.now()), /could not be reached/);
  await t.rejects(resolveRefundTarget('not an address@', 571, Date.now()), { kind: 'validation' });
  const expired = encodeBolt11({ chain: 'regtest', timestampSeconds: 1000, paymentHash: hex(), paymentSecret: hex(), description: 'x', expirySeconds: 60 }, KEY);
  await t.rejects(resolveRefundTarget(expired, 571, Date.now()), /expired/);
  t.equal((await resolveRefundTarget(bolt11().serialized, 571, Date.now())).amountless, true);
});
