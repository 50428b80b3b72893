import t from 'tap';
import { randomUUID } from 'node:crypto';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { AckPolicy, DeliverPolicy, connect as natsConnect, nanos } from 'nats';
import { InProcessBus, natsServerAvailable, startNatsServer, subjectMatches } from '../src/index.js';
import { ACK_WAIT_MS, NatsBus } from '../src/nats.js';
import { busContract } from './contract.js';

busContract('in-process', async () => new InProcessBus());

if (natsServerAvailable()) {
  const server = await startNatsServer();
  t.teardown(() => server.stop());
  busContract('nats jetstream', () => NatsBus.connect(server.url));
  natsRedelivery(server.url);
} else {
  t.test('bus contract: nats jetstream', { skip: 'no nats-server binary on PATH (apt-get install nats-server)' }, () => {});
}

t.test('subject wildcards follow NATS rules', async (t) => {
  t.ok(subjectMatches('pos.order.*', 'pos.order.OrderPlaced'));
  t.notOk(subjectMatches('pos.order.*', 'pos.order.a.b'));
  t.ok(subjectMatches('pos.order.>', 'pos.order.a.b'));
  t.notOk(subjectMatches('pos.order.>', 'pos.order'));
  t.notOk(subjectMatches('pos.order.x', 'pos.order.y'));
  t.notOk(subjectMatches('pos.order.x.y', 'pos.order.x'));
});

/** A TCP relay to the NATS server that can cut every connection through it, and let them back. */
async function cuttableLink(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (at: number) => new Promise<number>((resolve) => {
    server = createServer((client) => {
      const upstream = connect(Number(port), hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined).on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(at, '127.0.0.1', () => resolve((server!.address() as { port: number }).port));
  });
  const at = await listen(0);
  return {
    url: `nats://127.0.0.1:${at}`,
    cut: () => {
      server?.close();
      for (const s of sockets) s.destroy();
    },
    restore: () => listen(at),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitFor = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await sleep(20);
  return check();
};

function natsRedelivery(url: string) {
  t.test('NATS: a message held by a consumer that vanished (a crashed bridge) is delivered again within 5 s', async (t) => {
    const link = await cuttableLink(url);
    const holder = await NatsBus.connect(link.url);
    const other = await NatsBus.connect(url);
    let release = () => undefined as void;
    t.teardown(async () => {
      release();
      await link.restore();
      await holder.close();
      await other.close();
      link.cut();
    });
    const family = `r${randomUUID().slice(0, 8)}`;
    const durable = `d${randomUUID().slice(0, 8)}`;
    let held = 0;
    // Takes the message and does not answer before it is cut off, as a process killed mid-handler.
    await holder.subscribe(`pos.${family}.>`, () => (held++, new Promise<void>((resolve) => (release = resolve))), { durable });
    await other.publish(`pos.${family}.paid`, { n: 1 }, randomUUID());
    t.ok(await waitFor(() => held === 1, 5_000), 'the first consumer took it');
    link.cut();
    const cutAt = Date.now();
    let deliveredAt = 0;
    await other.subscribe(`pos.${family}.>`, () => void (deliveredAt ||= Date.now()), { durable });
    t.ok(await waitFor(() => deliveredAt > 0, 10_000), 'delivered to the consumer still there');
    t.ok(deliveredAt > 0 && deliveredAt - cutAt < 5_000, `within 5 s (${deliveredAt - cutAt} ms)`);
  });

  t.test('NATS: a slow handler is not given its message twice while it works', async (t) => {
    const bus = await NatsBus.connect(url);
    t.teardown(() => bus.close());
    const family = `s${randomUUID().slice(0, 8)}`;
    let calls = 0;
    await bus.subscribe(`pos.${family}.>`, async () => {
      calls++;
      await sleep(ACK_WAIT_MS + 2_000);
    }, { durable: `d${randomUUID().slice(0, 8)}` });
    await bus.publish(`pos.${family}.x`, { n: 1 }, randomUUID());
    await sleep(ACK_WAIT_MS * 2 + 1_000);
    t.equal(calls, 1);
  });

  t.test('NATS: a durable consumer made with the old 30 s ack wait is updated in place, its position kept', async (t) => {
    const nc = await natsConnect({ servers: url });
    t.teardown(() => nc.close());
    const bus = await NatsBus.connect(url);
    t.teardown(() => bus.close());
    const family = `u${randomUUID().slice(0, 8)}`;
    const durable = `d${randomUUID().slice(0, 8)}`;
    const got: number[] = [];
    // The stream exists once something was published to the family.
    await bus.publish(`pos.${family}.x`, { n: 1 }, randomUUID());
    const jsm = await nc.jetstreamManager();
    const stream = `POS_${family.toUpperCase()}`;
    await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: `pos.${family}.>`, ack_wait: nanos(30_000) });
    await bus.subscribe<{ n: number }>(`pos.${family}.>`, (m) => void got.push(m.payload.n), { durable });
    t.ok(await waitFor(() => got.length === 1, 5_000));
    t.equal((await jsm.consumers.info(stream, durable)).config.ack_wait, nanos(ACK_WAIT_MS));
  });
}
