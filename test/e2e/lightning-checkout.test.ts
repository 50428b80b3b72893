import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone, type StandaloneProcess } from '../src/standalone-process.js';

type Checkout = { invoice: string; payment_hash: string; amount_sat: number; rate: number; fiat_due: number; expires_at: string };
type Ticket = { id: string; status: number; paid: number; due: number; tip: number; payments: Array<{ method: string; sats?: number; payment_hash?: string; flag?: string }> };

/** The built-in simulator's customer wallet, as the standalone announces it. */
function customerOf(pos: StandaloneProcess) {
  const m = /a customer wallet at (http:\/\/\S+) \(Basic auth, empty user, password (\S+)\)/.exec(pos.output());
  if (!m) throw new Error(`no simulated network announced:\n${pos.output()}`);
  const [, url, password] = m;
  return async (fields: Record<string, string | number>) => {
    const res = await fetch(`${url}/payinvoice`, {
      method: 'POST', headers: { authorization: `Basic ${Buffer.from(`:${password}`).toString('base64')}` },
      body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
    });
    return (await res.json()) as { paymentId?: string; reason?: string };
  };
}

const eventually = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> => {
  const until = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
};

t.test('a ticket paid by Lightning end to end: full, a share then the rest, after expiry, over; a restart changes nothing', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-checkout-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // The built-in simulated network: the restaurant node signs webhooks to this process, and the
  // reconciler also follows its websocket and lists: each payment reaches the ticket by several paths.
  const env = {
    COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_RATES: 'USD=97000.00,MXN=1750000.00',
    COMANDA_CHECKOUT_EXPIRY_S: '10', COMANDA_RECONCILE_EVERY_S: '1', LOG_LEVEL: 'warn',
  };
  let pos = await startStandalone(env);
  t.teardown(() => pos.stop());
  t.match(pos.output(), /FIXED from COMANDA_RATES/, 'fixed rates are announced at start');
  const pay = customerOf(pos);
  let admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const ok = <T>(res: { status: number; body: unknown }, ...status: number[]) => {
    if (!status.includes(res.status)) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  };
  const me = ok<{ id: string }>(await admin.get('/auth/me'), 200).id;
  const category = ok<{ id: string }>(await admin.post('/categories', { name: 'Tacos' }), 201).id;
  const dish = (await admin.post('/dishes', { name: 'Pastor', price: 85.5, category_id: category })).headers.get('location')!.split('/').pop()!;
  const newTicket = async () => {
    const order = ok<{ id: string }>(await admin.post('/orders/with-dishes', { order: { user_id: me, table_id: null, waiter: 'Ana' }, dishes: [{ dish_id: dish }, { dish_id: dish }] }), 201).id;
    return ok<{ ids: string[] }>(await admin.post(`/orders/${order}/tickets`, { split: 'none' }), 201).ids[0]!; // 171.00 MXN
  };
  const ticket = (id: string) => admin.get(`/tickets/${id}`).then((r) => r.body as Ticket);
  const checkout = async (id: string, body: object = {}) => ok<Checkout>(await admin.post(`/tickets/${id}/lightning`, body), 200, 201);

  // Full.
  const full = await newTicket();
  const inv = await checkout(full);
  t.equal(inv.amount_sat, Math.ceil(17100 * 1e6 / 1750000), '171.00 MXN at 1,750,000 MXN/BTC, rounded up');
  t.ok((await pay({ invoice: inv.invoice })).paymentId, 'the customer pays');
  const paid = await eventually(() => ticket(full), (k) => k.status === 2);
  t.match(paid, { status: 2, paid: 171, due: 0, payments: [{ method: 'lightning', sats: inv.amount_sat, payment_hash: inv.payment_hash }] });

  // A share, then the rest.
  const shared = await newTicket();
  const part = await checkout(shared, { amount: 71 });
  await pay({ invoice: part.invoice });
  t.match(await eventually(() => ticket(shared), (k) => k.payments.length === 1), { status: 1, paid: 71, due: 100 });
  const rest = await checkout(shared);
  t.equal(rest.fiat_due, 100);
  await pay({ invoice: rest.invoice });
  t.match(await eventually(() => ticket(shared), (k) => k.status === 2), { status: 2, paid: 171, due: 0 });

  // After expiry: the node refuses the old invoice, the waiter asks again and gets a new one.
  const late = await newTicket();
  const old = await checkout(late);
  await new Promise((r) => setTimeout(r, Date.parse(old.expires_at) - Date.now() + 1_200));
  t.match(await pay({ invoice: old.invoice }), { reason: /./ }, 'an expired invoice cannot be paid');
  const fresh = await checkout(late);
  t.not(fresh.payment_hash, old.payment_hash, 'a new invoice at the current rate');
  await pay({ invoice: fresh.invoice });
  t.match(await eventually(() => ticket(late), (k) => k.status === 2), { status: 2, paid: 171, payments: [{ payment_hash: fresh.payment_hash }] });

  // Over: the excess becomes a tip (COMANDA_LIGHTNING_EXCESS defaults to tip).
  const over = await newTicket();
  const o = await checkout(over, { tip: 10 });
  await pay({ invoice: o.invoice, amountSat: o.amount_sat + 1000 });
  const overPaid = await eventually(() => ticket(over), (k) => k.status === 2);
  t.equal(overPaid.due, 0);
  t.ok(overPaid.tip >= 10 + 17.5 && overPaid.tip < 10 + 17.5 + 0.02, `the asked tip plus the excess (${overPaid.tip})`);

  // A customer pays and the POS stops at once: whether the webhook made it or not, after the restart
  // the reconciler finds the payment, and the ticket shows it once; nothing else changes.
  const whileDown = await newTicket();
  const d = await checkout(whileDown);
  const before = await Promise.all([full, shared, late, over].map(ticket));
  t.ok((await pay({ invoice: d.invoice })).paymentId);
  t.equal(await pos.stop(), 0);
  pos = await startStandalone(env);
  admin = new Client(pos.url);
  await admin.login('admin', '1234');
  t.same(await Promise.all([full, shared, late, over].map(ticket)), before, 'a restart changes nothing');
  const afterRestart = await eventually(() => ticket(whileDown), (k) => k.status === 2);
  t.equal(afterRestart.payments.length, 1);
  // Webhook, websocket and the timer have all had their turn by now: still one payment per hash.
  await new Promise((r) => setTimeout(r, 2_500));
  for (const id of [full, shared, late, over, whileDown]) {
    const k = await ticket(id);
    const hashes = k.payments.map((p) => p.payment_hash);
    t.equal(new Set(hashes).size, hashes.length, `ticket ${id.slice(0, 8)}: each payment counted once`);
  }
  t.equal((await ticket(shared)).payments.length, 2);
  const rates = ok<Array<{ currency: string; rate: number; source: string; fresh: boolean }>>(await admin.get('/currencies/rates'), 200);
  t.match(rates, [{ currency: 'MXN', rate: 1750000, source: 'fixed', fresh: true }, { currency: 'USD', rate: 97000 }]);
});
