import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kitchenTicketStream, orderStream } from '@comanda/domain';
import { SqliteEventStore } from '@comanda/event-store';
import { Client } from '../src/http-client.js';
import { kitchenRestaurant } from '../src/kitchen-setup.js';
import { startStandalone } from '../src/standalone-process.js';

/**
 * kill -9 between an order's cancellation and the close of its kitchen ticket: the process is killed
 * with the ticket on the board, the cancellation is then in the log as if the API had written it just
 * before dying, and the restarted process closes the ticket; a second restart (every reaction delivered
 * again from an older checkpoint is harmless) leaves it closed once.
 */
t.test('a ticket whose order was cancelled just before a kill -9 is closed after the restart, exactly once', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-kds-crash-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' };
  const first = await startStandalone(env);
  t.teardown(() => first.stop());
  const r = await kitchenRestaurant(first.url);
  const { orderId, tickets } = await r.fireOrder();
  const grill = tickets.find((k) => k.station_id === r.grill)!.id;
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const log = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  const [last] = (await log.readStream(orderStream(orderId))).slice(-1);
  await log.append(orderStream(orderId), [{
    id: randomUUID(), type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: Date.now() },
    metadata: { occurredAt: Date.now(), schemaVersion: 1 },
  }], last!.revision);
  t.same((await log.readStream(kitchenTicketStream(grill))).map((e) => e.type), ['KitchenTicketOpened'], 'killed with the ticket open');
  await log.close();

  for (const round of [1, 2]) {
    const pos = await startStandalone(env);
    const chef = new Client(pos.url);
    await chef.login('chef', '3690');
    let closed: Array<{ id: string; closed_reason: string }> = [];
    for (let i = 0; i < 200 && closed.length === 0; i++) {
      closed = (await chef.get(`/kitchen/tickets?station_id=${r.grill}&status=closed`)).body as typeof closed;
      if (closed.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    t.match(closed, [{ id: grill, closed_reason: 'order_cancelled' }], `restart ${round}: closed, saying why`);
    t.same((await chef.get(`/kitchen/tickets?station_id=${r.grill}`)).body, [], `restart ${round}: off the board`);
    t.equal(await pos.stop(), 0);
  }
  const after = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  t.teardown(() => after.close());
  t.equal((await after.readStream(kitchenTicketStream(grill))).filter((e) => e.type === 'KitchenTicketClosed').length, 1, 'one close in the log');
});
