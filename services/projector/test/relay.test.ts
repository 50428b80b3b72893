import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { InProcessBus, type BusMessage } from '@comanda/bus';
import { MemoryEventStore } from '@comanda/event-store';
import { FileCheckpoint, Relay, subjectFor } from '../src/index.js';

const until = async (check: () => boolean) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

t.test('subjects name the aggregate and the event', async (t) => {
  t.equal(subjectFor({ stream: 'order-8f1c', type: 'OrderPlaced' }), 'pos.order.OrderPlaced');
  t.equal(subjectFor({ stream: 'floor', type: 'TableAdded' }), 'pos.floor.TableAdded');
  t.equal(subjectFor({ stream: 'table-2b7e', type: 'TableOccupied' }), 'pos.table.TableOccupied', 'a table\'s seating: its own stream');
});

t.test('relays each event once with its id as dedupId, and resumes from its file checkpoint', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-relay-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = new MemoryEventStore();
  const bus = new InProcessBus();
  const got: BusMessage<{ id: string; type: string; data: unknown }>[] = [];
  await bus.subscribe('pos.order.>', (m) => void got.push(m as never));
  const old = await store.append('order-1', [{ id: randomUUID(), type: 'OrderPlaced', data: { n: 0 }, metadata: {} }], 'no_stream');
  t.ok(old);
  const checkpoint = new FileCheckpoint(join(dir, 'relay.checkpoint'), 1);
  const relay = new Relay(store, bus, checkpoint, pino({ level: 'silent' }), 'head');
  await relay.start();
  await store.append('order-1', [{ id: randomUUID(), type: 'DishesAdded', data: { n: 1 }, metadata: { userId: 'u' } }], 0);
  await until(() => got.length === 1);
  t.equal(got[0]!.subject, 'pos.order.DishesAdded');
  t.equal(got[0]!.dedupId, got[0]!.payload.id);
  t.same(got[0]!.payload.data, { n: 1 });
  await relay.stop();
  await store.append('order-1', [{ id: randomUUID(), type: 'OrderCompleted', data: { n: 2 }, metadata: {} }], 1);
  const again = new Relay(store, bus, new FileCheckpoint(join(dir, 'relay.checkpoint'), 1), pino({ level: 'silent' }), 'head');
  await again.start();
  await until(() => got.length === 2);
  t.same(got.map((m) => m.payload.type), ['DishesAdded', 'OrderCompleted'], 'history before the first start was not republished');
  await again.stop();
});

t.test('the bus away: the relay waits (degraded) and publishes the same messages once it is back, in order, none skipped', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-relay-away-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = new MemoryEventStore();
  const bus = new InProcessBus();
  const got: string[] = [];
  await bus.subscribe('pos.order.>', (m) => void got.push((m.payload as { type: string }).type));
  let away = true;
  const publish = bus.publish.bind(bus);
  bus.publish = async (subject, payload, dedupId) => {
    if (away) throw new Error('NATS away');
    return publish(subject, payload, dedupId);
  };
  const checkpoint = new FileCheckpoint(join(dir, 'relay.checkpoint'), 1);
  const relay = new Relay(store, bus, checkpoint, pino({ level: 'silent' }), 'head');
  await relay.start();
  t.equal(relay.state, 'live');
  await store.append('order-2', [{ id: randomUUID(), type: 'OrderPlaced', data: {}, metadata: {} }], 'no_stream');
  await store.append('order-2', [{ id: randomUUID(), type: 'DishesAdded', data: {}, metadata: {} }], 0);
  await until(() => relay.state === 'degraded');
  await new Promise((r) => setTimeout(r, 300));
  t.same(got, [], 'nothing published while away');
  t.equal(await checkpoint.get(), null, 'and the checkpoint did not move past it');
  away = false;
  await until(() => got.length === 2);
  t.same(got, ['OrderPlaced', 'DishesAdded']);
  await until(() => relay.state === 'live');
  await relay.stop();
  t.equal(await checkpoint.get(), (await store.headPosition())!, 'checkpointed once published');
});

t.test('a relay stopped while the bus is away stops at once, its checkpoint before the message in hand', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-relay-stop-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = new MemoryEventStore();
  const bus = new InProcessBus();
  bus.publish = async () => {
    throw new Error('NATS away');
  };
  const checkpoint = new FileCheckpoint(join(dir, 'relay.checkpoint'), 1);
  const relay = new Relay(store, bus, checkpoint, pino({ level: 'silent' }), 'head');
  await relay.start();
  await store.append('order-3', [{ id: randomUUID(), type: 'OrderPlaced', data: {}, metadata: {} }], 'no_stream');
  await until(() => relay.state === 'degraded');
  const stopping = Date.now();
  await relay.stop();
  t.ok(Date.now() - stopping < 1_000, 'no wait for the bus');
  t.equal(await checkpoint.get(), null);
});
