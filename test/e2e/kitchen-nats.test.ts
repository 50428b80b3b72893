import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerAvailable, startNatsServer } from '@comanda/bus';
import { NatsBus } from '@comanda/bus/nats';
import { startStandalone } from '../src/standalone-process.js';
import { kitchenRestaurant } from '../src/kitchen-setup.js';

type KitchenMessage = { id: string; type: string; ticket: { id: string; station_id: string; table_name: string | null; waiter: string; lines: Array<{ dish_name: string; notes: string; kitchen_status: string }> } };

const eventually = async (check: () => boolean, what: string, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

t.test('kitchen screens over a real NATS JetStream: self-contained tickets; a screen that drops gets every missed ticket once', async (t) => {
  if (!natsServerAvailable()) {
    t.comment('skipped: nats-server is not installed (this test needs a real NATS JetStream server)');
    return;
  }
  const nats = await startNatsServer();
  t.teardown(() => nats.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-kitchen-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_NATS_URL: nats.url });
  t.teardown(() => pos.stop());
  const r = await kitchenRestaurant(pos.url);

  // Any subscriber on pos.kitchen.> (here: every station, live only).
  const watcher = await NatsBus.connect(nats.url, 'e2e-kitchen-watcher');
  t.teardown(() => watcher.close());
  const seen: Array<{ subject: string; body: KitchenMessage; dedupId: string }> = [];
  await watcher.subscribe<KitchenMessage>('pos.kitchen.>', (m) => void seen.push({ subject: m.subject, body: m.payload, dedupId: m.dedupId }));

  // The grill's screen: a durable consumer on its own station's subject.
  const grillScreen = async (into: KitchenMessage[]) => {
    const bus = await NatsBus.connect(nats.url, 'grill-screen');
    await bus.subscribe<KitchenMessage>(`pos.kitchen.${r.grill}.>`, (m) => void into.push(m.payload), { durable: 'screen-grill' });
    return bus;
  };
  const first: KitchenMessage[] = [];
  const screen = await grillScreen(first);

  const one = await r.fireOrder();
  const grillTicket = one.tickets.find((k) => k.station_id === r.grill)!.id;
  await eventually(() => seen.some((m) => m.body.type === 'KitchenTicketOpened' && m.body.ticket.id === grillTicket), 'the fired ticket on pos.kitchen.>');
  const opened = seen.find((m) => m.body.ticket.id === grillTicket)!;
  t.equal(opened.subject, `pos.kitchen.${r.grill}.KitchenTicketOpened`);
  t.equal(opened.dedupId, opened.body.id, 'the event id is the Nats-Msg-Id');
  t.match(opened.body.ticket, { station_id: r.grill, table_name: 'T7', waiter: 'Marisol', lines: [{ dish_name: 'Taco al pastor', notes: 'sin cebolla', kitchen_status: 'sent' }] }, 'all a screen needs, in one message');
  await eventually(() => seen.some((m) => m.subject === `pos.kitchen.${r.bar}.KitchenTicketOpened`), 'the bar ticket on its own subject');
  t.pass('the bar ticket on its own subject');
  await eventually(() => first.length === 1, 'the grill screen to get its ticket');

  // The screen drops; three orders are fired and one ticket bumped meanwhile.
  await screen.close();
  const missed = [await r.fireOrder('bien dorado'), await r.fireOrder(''), await r.fireOrder('sin salsa')];
  const chef = new (await import('../src/http-client.js')).Client(pos.url);
  await chef.login('chef', '3690');
  t.equal((await chef.post(`/kitchen/tickets/${grillTicket}/bump`)).status, 200);

  const after: KitchenMessage[] = [];
  const back = await grillScreen(after);
  t.teardown(() => back.close());
  await eventually(() => after.length >= 5, 'the missed messages after reconnecting');
  await new Promise((r) => setTimeout(r, 1000));
  const openedAfter = after.filter((m) => m.type === 'KitchenTicketOpened').map((m) => m.ticket.id);
  const expected = missed.map((o) => o.tickets.find((k) => k.station_id === r.grill)!.id);
  t.same(openedAfter, expected, 'every ticket fired while away, in order');
  t.same(after.filter((m) => m.type === 'KitchenTicketBumped').map((m) => m.ticket.id), [grillTicket], 'and the bump');
  t.equal(new Set(after.map((m) => m.id)).size, after.length, 'each once');
  t.notOk(after.some((m) => first.some((f) => f.id === m.id)), 'nothing it had already acknowledged');
  t.ok(after.every((m) => m.ticket.station_id === r.grill), 'only its own station');
});
