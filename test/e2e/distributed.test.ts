import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerAvailable } from '@comanda/bus';
import { NatsBus } from '@comanda/bus/nats';
import { postgresAvailable } from '@comanda/postgres';
import { Client } from '../src/http-client.js';
import { startDistributed } from '../src/distributed-stack.js';
import { crash, eventually } from '../src/processes.js';
import { repoRoot } from '../src/standalone-process.js';

type Res = { status: number; body: unknown; headers: Headers };
const ok = (res: Res, status: number) => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: string };
};

/**
 * A write that was recorded: answered in full (`status`), or 202 while the read models (or the reactor)
 * are behind past the bound — the projector down, say (issue 58) — with where it will be read; the
 * body's id, else the last segment of that location.
 */
const recorded = (res: Res, status: number) => {
  if (res.status === 202) return { id: res.headers.get('location')!.split('/').pop()! };
  return ok(res, status);
};

/** One tablet's session used against both replicas: tokens signed by one replica work on the other. */
function sameSession(a: Client, url: string): Client {
  const b = new Client(url);
  (b as unknown as { cookies: Map<string, string> }).cookies = (a as unknown as { cookies: Map<string, string> }).cookies;
  return b;
}

t.test('an API replica without COMANDA_MASTER_KEY refuses to start, naming it', async (t) => {
  const run = spawnSync(process.execPath, [join(repoRoot, 'services/api/dist/main.js')], {
    env: { PATH: process.env.PATH, COMANDA_EVENTSTORE_URL: 'postgres://127.0.0.1:1/none', COMANDA_READSTORE_URL: 'postgres://127.0.0.1:1/none', COMANDA_DATA_DIR: mkdtempSync(join(tmpdir(), 'comanda-nokey-')) },
    encoding: 'utf8', timeout: 30_000,
  });
  t.equal(run.status, 1);
  t.match(run.stderr, /COMANDA_MASTER_KEY.*every replica must be given the same key/);
});

/** A process's /health: its status and each check. */
const health = async (url: string) => {
  const res = await fetch(`${url}/health`);
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, string> }).checks };
};

if (!postgresAvailable() || !natsServerAvailable()) {
  t.fail('the distributed end-to-end test needs postgresql and nats-server installed (.ci/run installs both)');
} else {
  // Fifteen steps on one stack take 80-120 s on two shared cores, and `floor-cycles.test.ts` may run
  // its own stack beside it (tap runs two files at once): tap's 120 s default cut it short in teardown.
  t.setTimeout(300_000);
  t.test('the distributed shape on PostgreSQL + NATS: two API replicas, projector, wallet bridge, node simulator', async (t) => {
    const stack = await startDistributed(2);
    t.teardown(async () => {
      // On a failure, what each process said is the first thing to read.
      if (!t.passing()) for (const p of [stack.projector, stack.walletBridge, ...stack.apis, stack.nodeSim]) t.comment(`--- ${p.name}\n${p.output().slice(-3000)}`);
      await stack.close();
    });
    if (process.env.COMANDA_E2E_DEBUG) {
      process.on('exit', () => {
        const dump = [stack.projector, stack.walletBridge, ...stack.apis, stack.nodeSim].map((p) => `--- ${p.name} (${p.starts} starts)\n${p.output()}`);
        writeFileSync(process.env.COMANDA_E2E_DEBUG!, dump.join('\n'));
      });
    }
    const [urlA, urlB] = stack.urls as [string, string];
    const a = new Client(urlA);
    await a.login('admin', '1234');
    const b = sameSession(a, urlB);
    const kitchen = await NatsBus.connect(stack.natsUrl, 'e2e-kitchen');
    t.teardown(() => kitchen.close());
    const kitchenSaw: Array<{ type: string; stream: string }> = [];
    await kitchen.subscribe<{ type: string; stream: string }>('pos.order.>', (m) => void kitchenSaw.push(m.payload));

    const { id: me, name: myName } = ok(await b.get('/auth/me'), 200) as { id: string; name: string };
    const category = ok(await a.post('/categories', { name: 'Antojitos' }), 201).id;
    t.ok(((await b.get('/categories')).body as Array<{ id: string }>).some((c) => c.id === category), 'a category posted on A is listed by B');
    const dishRes = await b.post('/dishes', { name: 'Tacos al pastor', price: 95, category_id: category });
    const dish = dishRes.headers.get('location')!.split('/').pop()!;
    t.equal(ok(await a.get(`/dishes/${dish}`), 200).name, 'Tacos al pastor', 'a dish posted on B is read on A');
    const space = ok(await a.post('/spaces', { name: 'Salón' }), 201).id;
    const tables: string[] = [];
    for (let i = 0; i < 8; i++) {
      const via = i % 2 ? b : a;
      tables.push(ok(await via.post('/tables', { name: `S${i}`, status: 'available', space_id: space, order_id: null }), 201).id);
    }
    t.equal(((await b.get(`/tables/by-space/${space}`)).body as unknown[]).length, 8);

    t.test('each process answers /health for the parts it runs; the API reaches the configured node', async (t) => {
      await eventually(async () => (await health(urlA)).status === 200, 'the API replica to be ready (its reports folded)');
      const apiHealth = await health(urlA);
      t.equal(apiHealth.status, 200, JSON.stringify(apiHealth.checks));
      t.same(Object.keys(apiHealth.checks).sort(), ['bus', 'eventStore', 'lightningNode', 'readModels', 'readStore', 'reports'], 'API: stores, bus, the projector\'s read models, the owner\'s reports, the node');
      await eventually(async () => (await health(stack.projectorUrl)).status === 200, 'the projector to be healthy');
      t.same(Object.keys((await health(stack.projectorUrl)).checks).sort(), ['bus', 'eventStore', 'kitchenRelay', 'processManagers', 'projector', 'readStore', 'relay'], 'projector: every part it runs');
      await eventually(async () => (await health(stack.bridgeUrl)).status === 200, 'the bridge to be healthy');
      t.ok('walletBridge' in (await health(stack.bridgeUrl)).checks, 'wallet bridge: its reconciliation');
      t.equal((await fetch(`${stack.projectorUrl}/health/ready`)).status, 200);
      const invoice = await b.post('/wallet/createinvoice', { description: 'health', amountSat: 1 });
      t.equal(invoice.status, 200, `the API reaches COMANDA_NODE_URL (${JSON.stringify(invoice.body)})`);
    });

    t.test('a dinner service through both replicas alternately; the kitchen sees it on NATS', async (t) => {
      const order = ok(await a.post('/orders', { user_id: me, table_id: tables[0], waiter: 'Ana', status: 'pending', total: 0 }), 201).id;
      t.equal(ok(await b.get(`/orders/${order}`), 200).status, 'pending', 'POST on A, GET on B sees it');
      ok(await b.post(`/orders/${order}/dishes`, [{ dish_id: dish, price_at_order: 95, notes: '' }, { dish_id: dish, price_at_order: 95, notes: 'sin cebolla' }]), 201);
      t.equal((ok(await a.get(`/orders/${order}`), 200).total as number), 190, 'dishes added on B, total read on A');
      for (const [i, status] of ['preparing', 'ready', 'completed'].entries()) {
        ok(await (i % 2 ? a : b).put(`/orders/${order}`, { user_id: me, table_id: tables[0], waiter: 'Ana', status }), 200);
        t.equal(ok(await (i % 2 ? b : a).get(`/orders/${order}`), 200).status, status, `${status} on one replica, seen on the other`);
      }
      const table = ((await a.get(`/tables/by-space/${space}`)).body as Array<{ id: string; status: string }>).find((x) => x.id === tables[0]);
      t.equal(table?.status, 'available', 'the table was released');
      await eventually(() => kitchenSaw.some((e) => e.type === 'OrderStatusChanged' && e.stream === `order-${order}`), 'the kitchen to see the order on NATS');
      t.ok(kitchenSaw.some((e) => e.type === 'OrderPlaced' && e.stream === `order-${order}`));
    });

    t.test('a settings change on one replica is enforced by the other: the waiter\'s discount limit (issue 60)', async (t) => {
      ok(await a.post('/users', { name: 'waiter-dist', pin: '4321', role: 'waiter' }), 201);
      const waiter = new Client(urlB);
      await waiter.login('waiter-dist', '4321');
      const waiterId = ok(await waiter.get('/auth/me'), 200).id;
      const order = ok(await waiter.post('/orders/with-dishes', { order: { user_id: waiterId, table_id: null, waiter: 'waiter-dist' }, dishes: [{ dish_id: dish }] }), 201).id;
      const { version } = ok(await a.get('/settings'), 200) as unknown as { version: number };
      ok(await a.put('/settings', { waiter_discount_max_percent: 3, reason: 'distributed e2e' }, { 'if-match': `"${version}"` }), 200);
      await eventually(async () => (ok(await waiter.get('/settings'), 200) as unknown as { waiter_discount_max_percent: number }).waiter_discount_max_percent === 3, 'replica B to read the new limit');
      const refused = await waiter.post(`/orders/${order}/discounts`, { kind: 'percent', value: 5, reason: 'regular' });
      t.equal(refused.status, 403, `over the limit set on A: ${JSON.stringify(refused.body)}`);
      t.equal((await waiter.post(`/orders/${order}/discounts`, { kind: 'percent', value: 3, reason: 'regular' })).status, 201, 'within it');
    });

    t.test('a write\'s direct reactions are visible as it answers, on either replica: a fired line removed is struck through on its ticket', async (t) => {
      const station = ok(await a.post('/stations', { name: 'Plancha' }), 201).id;
      const category = ok(await a.post('/categories', { name: 'Plancha', station_id: station }), 201).id;
      const dish = (await a.post('/dishes', { name: 'Costra', price: 40, category_id: category })).headers.get('location')!.split('/').pop()!;
      let seen = 0;
      for (let i = 0; i < 10; i++) {
        const [writer, reader] = i % 2 ? [a, b] : [b, a];
        const order = ok(await writer.post('/orders', { user_id: me, table_id: null, waiter: 'Ana', status: 'pending', total: 0 }), 201).id;
        ok(await writer.post(`/orders/${order}/dishes`, [{ dish_id: dish }, { dish_id: dish }]), 201);
        const fired = ok(await writer.post(`/orders/${order}/fire`, {}), 200) as unknown as { tickets: Array<{ id: string; line_ids: string[] }> };
        const ticket = fired.tickets[0]!;
        ok(await writer.delete(`/orders/${order}/dishes/${ticket.line_ids[0]}`), 200);
        const open = (await reader.get(`/kitchen/tickets?station_id=${station}`)).body as Array<{ id: string; lines: Array<{ line_id: string; kitchen_status: string }> }>;
        const line = open.find((k) => k.id === ticket.id)?.lines.find((l) => l.line_id === ticket.line_ids[0]);
        if (line?.kitchen_status === 'cancelled') seen++;
      }
      t.equal(seen, 10, 'struck through at once in 10 of 10 (the write\'s answer waited for its reactions)');
    });

    t.test('a Lightning payment reaches its order through node → wallet-bridge → NATS → event store → projector', async (t) => {
      const order = ok(await b.post('/orders', { user_id: me, table_id: tables[1], waiter: 'Ana', status: 'pending', total: 0 }), 201).id;
      const invoice = ok(await a.post('/wallet/createinvoice', { description: 'Mesa S1', amountSat: 2100, externalId: order }), 200) as unknown as { serialized: string; paymentHash: string };
      const paid = await fetch(`${stack.customer.url}/payinvoice`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`:${stack.customer.password}`).toString('base64')}` },
        body: new URLSearchParams({ invoice: invoice.serialized }),
      });
      t.equal(paid.status, 200, 'the customer node paid');
      await eventually(async () => (ok(await b.get(`/orders/${order}`), 200).paid_sat as number) === 2100, 'the payment on the order');
      const complete = ok(await a.get(`/orders/${order}/complete`), 200) as unknown as { payments: unknown[] };
      t.match(complete.payments, [{ payment_hash: invoice.paymentHash, amount_sat: 2100 }]);
      t.equal(complete.payments.length, 1, 'recorded once');
    });

    t.test('kill -9 the projector mid-load: it restarts, the read models converge, nothing applied twice', async (t) => {
      const placed: string[] = [];
      const load = (async () => {
        for (let i = 0; i < 24; i++) {
          const via = i % 2 ? a : b;
          // While the projector is down a write is recorded and answers 202: no 201 the next read would belie.
          const id = recorded(await via.post('/orders', { user_id: me, table_id: null, waiter: 'Load', status: 'pending', total: 0 }), 201).id;
          recorded(await (i % 2 ? b : a).post(`/orders/${id}/dishes`, [{ dish_id: dish, price_at_order: 95, notes: '' }]), 201);
          recorded(await via.post(`/orders/${id}/dishes`, [{ dish_id: dish, price_at_order: 95, notes: 'otra' }]), 201);
          placed.push(id);
        }
      })();
      await eventually(() => placed.length >= 6, 'some load before the crash');
      const startsBefore = stack.projector.starts;
      await crash(stack.projector);
      await load;
      await eventually(() => stack.projector.starts > startsBefore && stack.projector.running, 'the supervisor to restart the projector');
      await eventually(async () => {
        const views = await Promise.all(placed.map(async (id) => ok(await b.get(`/orders/${id}`), 200)));
        return views.every((v) => v.total === 190);
      }, 'every order to show its two lines');
      for (const id of placed) {
        const v = ok(await a.get(`/orders/${id}`), 200);
        const lines = (await a.get(`/orders/${id}/dishes`)).body as unknown[];
        if (lines.length !== 2 || v.total !== 190) t.fail(`order ${id}: ${JSON.stringify(v)} ${JSON.stringify(lines)}`);
      }
      t.pass(`${placed.length} orders, each exactly two lines and 190 after the crash`);
    });

    t.test('two projectors: one leads, the other stands by; a kill -9 of the leader hands the lead over within 5 s', async (t) => {
      const second = await stack.secondProjector();
      t.match(second.process.output(), /projector standing by/, 'the second stands by while the first leads');
      t.match(await health(second.url), { status: 200, checks: { leadership: 'standby' } });
      const firstBefore = stack.projector.output().length;
      await crash(stack.projector);
      const killedAt = Date.now();
      // The standby, or the first back under its supervisor: whichever asks first after the lock is free.
      const leads = () => /projector live/.test(second.process.output()) || /projector live/.test(stack.projector.output().slice(firstBefore));
      await eventually(leads, 'a projector to take the lead', 10_000);
      const tookMs = Date.now() - killedAt;
      t.ok(tookMs < 5_000, `a projector leads ${tookMs} ms after the kill`);
      const order = ok(await a.post('/orders', { user_id: me, table_id: null, waiter: 'Lia', status: 'pending', total: 0 }), 201).id;
      t.equal((await b.get(`/orders/${order}`)).status, 200, 'the new leader\'s read models answer');
      // Back to one projector, the stack's own, for the tests that follow.
      await second.process.stop();
      await eventually(async () => (await health(stack.projectorUrl)).checks.projector === 'live', 'the first projector to lead', 30_000);
    });

    t.test('kill one API replica: the other keeps serving reads and writes', async (t) => {
      await crash(stack.apis[0]!);
      const order = ok(await b.post('/orders', { user_id: me, table_id: tables[2], waiter: 'Beto', status: 'pending', total: 0 }), 201).id;
      t.equal(ok(await b.get(`/orders/${order}`), 200).waiter, myName, "the roster's name of its user_id");
      const restarted = await stack.apis[0]!.start();
      const again = sameSession(a, restarted);
      t.equal(ok(await again.get(`/orders/${order}`), 200).waiter, myName, 'the restarted replica reads what B wrote');
    });

    t.test('restart NATS: the relay pauses alone, the projector and the API stay ready, nothing lost or duplicated', async (t) => {
      const projectorStarts = stack.projector.starts;
      await stack.nats.stop();
      const during = ok(await b.post('/orders', { user_id: me, table_id: tables[3], waiter: 'Caro', status: 'pending', total: 0 }), 201).id;
      // The projections go on: the order is in the read models (its table taken by the process manager).
      const seated = async () => ((await b.get(`/tables/by-space/${space}`)).body as Array<{ id: string; status: string }>).find((x) => x.id === tables[3])?.status === 'occupied';
      await eventually(seated, 'the table seated while NATS is down');
      await eventually(async () => ((await health(stack.projectorUrl)).checks.relay === 'degraded'), 'the relay to report degraded');
      const projectorHealth = await health(stack.projectorUrl);
      t.match(projectorHealth.checks, { projector: 'live', processManagers: 'live', relay: 'degraded' }, 'only the relay waits for the bus');
      t.match(projectorHealth.checks.bus, /^down/, 'the bus shown down');
      for (const url of [stack.projectorUrl, ...stack.urls]) t.equal((await fetch(`${url}/health/ready`)).status, 200, `${url} stays ready`);
      t.equal(stack.projector.starts, projectorStarts, 'the projector did not exit');
      await stack.nats.start();
      const after = ok(await b.post('/orders', { user_id: me, table_id: tables[4], waiter: 'Caro', status: 'pending', total: 0 }), 201).id;
      await eventually(() => [during, after].every((id) => kitchenSaw.some((e) => e.type === 'OrderPlaced' && e.stream === `order-${id}`)), 'the kitchen to see both orders', 30_000);
      await new Promise((r) => setTimeout(r, 500));
      for (const id of [during, after]) {
        t.equal(kitchenSaw.filter((e) => e.type === 'OrderPlaced' && e.stream === `order-${id}`).length, 1, `order ${id.slice(0, 8)} seen once`);
      }
      await eventually(async () => (await fetch(`${stack.urls[1]}/health`)).status === 200, 'the API to be healthy again');
    });

    t.test('100 login attempts at once across both replicas: at most five PINs are checked', async (t) => {
      ok(await a.post('/users', { name: 'Rafaga', pin: '97531', role: 'waiter' }), 201);
      const login = (url: string, pin: string) => fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rafaga', pin }) });
      const burst = await Promise.all([...Array.from({ length: 99 }, (_, i) => login(stack.urls[i % 2]!, String(10000 + i))), login(urlB, '97531')]);
      const checked = burst.filter((r) => r.status !== 429).length;
      t.ok(checked <= 5, `PINs checked: ${checked} (statuses ${[...new Set(burst.map((r) => r.status))].join(', ')})`);
      t.equal(burst.at(-1)!.status, 429, 'the right PIN behind the burst is refused');
    });

    t.test('a payment taken while the projector is stopped answers 202 with where to read it, and is taken once', async (t) => {
      const order = ok(await a.post('/orders/with-dishes', { order: { user_id: me, table_id: null, waiter: 'Eli' }, dishes: [{ dish_id: dish }] }), 201).id;
      const ticket = (ok(await b.post(`/orders/${order}/tickets`, { split: 'none' }), 201).ids as string[])[0]!;
      await stack.projector.stop();
      const key = { 'idempotency-key': `pay-${ticket}` };
      try {
        const taken = await a.post(`/tickets/${ticket}/payments`, { method: 'credit_card', amount: 95 }, key);
        t.equal(taken.status, 202, `not 404 for its own success: ${JSON.stringify(taken.body)}`);
        t.equal(taken.headers.get('location'), `/tickets/${ticket}`);
      } finally {
        await stack.projector.start();
      }
      let again: Awaited<ReturnType<Client['post']>> | undefined;
      await eventually(async () => (again = await b.post(`/tickets/${ticket}/payments`, { method: 'credit_card', amount: 95 }, key)).status === 201, 'the retry with its key to answer in full', 30_000);
      t.match(again!.body, { ticket: { status: 2, paid: 95 } });
      t.equal((ok(await a.get(`/tickets/${ticket}`), 200).payments as unknown[]).length, 1, 'one payment');
    });

    t.test('PostgreSQL restarted (fast) under load: 503 with Retry-After while it is away, never a 500', async (t) => {
      await a.login('admin', '1234');
      const statuses = new Map<number, number>();
      let missingRetryAfter = 0;
      let running = true;
      const load = Promise.all([a, b].map(async (via, i) => {
        for (let n = 0; running; n++) {
          const res = await (n % 2 ? via.get('/orders?limit=5') : via.post('/orders', { user_id: me, table_id: null, waiter: `Load${i}`, status: 'pending', total: 0 })).catch(() => ({ status: 0, headers: new Headers() }));
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 503 && !res.headers.get('retry-after')) missingRetryAfter++;
        }
      }));
      const felt = () => (statuses.get(503) ?? 0) + (statuses.get(202) ?? 0);
      await new Promise((r) => setTimeout(r, 300));
      await stack.postgres.stop();
      await new Promise((r) => setTimeout(r, 1000));
      // Down until the load has met the outage (at most 15 s more): in one CI run both clients' requests
      // spanned the whole second and were answered 200/201 once the server was back, so nothing was
      // sent while it was down and the run proved nothing about an outage.
      for (const until = Date.now() + 15_000; felt() === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
      await stack.postgres.start();
      await eventually(async () => (await b.post('/orders', { user_id: me, table_id: null, waiter: 'After', status: 'pending', total: 0 })).status === 201, 'writes to succeed again', 30_000);
      running = false;
      await load;
      const seen = Object.fromEntries([...statuses].sort());
      t.comment(`statuses during the restart: ${JSON.stringify(seen)}`);
      t.ok([...statuses.keys()].every((s) => s < 500 || s === 503), `only 503 among server errors: ${JSON.stringify(seen)}`);
      t.ok(felt() > 0, 'the restart was felt');
      t.equal(missingRetryAfter, 0, 'every 503 says when to retry');
    });

    t.test('restart PostgreSQL: processes reconnect, acknowledged writes are all there', async (t) => {
      // The access token lives one minute and this client does not refresh: on a slow run, sign in again.
      await a.login('admin', '1234');
      const before = (ok(await b.get('/orders?limit=500'), 200) as unknown as Array<{ id: string }>).map((o) => o.id);
      await stack.postgres.crash();
      await stack.postgres.start();
      let order: string | undefined;
      await eventually(async () => {
        const res = await b.post('/orders', { user_id: me, table_id: tables[5], waiter: 'Dani', status: 'pending', total: 0 });
        // A 202 is recorded too (its table taken): the read models had not caught up at the bound.
        if (res.status === 201 || res.status === 202) order = recorded(res, 201).id;
        return order !== undefined;
      }, 'a write after the restart', 30_000);
      await eventually(async () => (ok(await sameSession(a, stack.urls[0]!).get(`/orders/${order}`), 200).waiter as string) === myName, 'the projector to catch up after the restart', 30_000);
      const after = (ok(await b.get('/orders?limit=500'), 200) as unknown as Array<{ id: string }>).map((o) => o.id);
      t.ok(before.every((id) => after.includes(id)), `all ${before.length} orders acknowledged before the restart are there`);
    });
  });
}
