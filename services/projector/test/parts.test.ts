import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@comanda/config';
import { FLOOR_STREAM, floor } from '@comanda/domain';
import type { CommandHandler, RecordedEvent } from '@comanda/event-store';
import { REACTIONS_APPENDED, REACTIONS_THROUGH, createRuntime } from '@comanda/runtime';
import { allReactions, kitchenRelay, projections, reactions, relay } from '../src/index.js';

/** The projector process's parts under the one composition root, as services/projector/src/main.ts runs them. */
t.test('projections, relays and reactions as parts: health per part, read models, the bus, durable checkpoints', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-parts-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ COMANDA_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
  const running = await createRuntime(config, [projections(), relay(), kitchenRelay(), reactions()]);
  const { runtime } = running;
  const published: string[] = [];
  await runtime.bus.subscribe('pos.floor.>', (m) => void published.push(m.subject));

  const health = (await (await fetch(`${running.url}/health`)).json()) as { checks: Record<string, string> };
  t.match(health.checks, { projector: 'live', relay: 'live', kitchenRelay: 'live', processManagers: 'live' }, 'every part the process runs is in its health');

  const spaceId = randomUUID();
  const { position } = await runtime.commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId, name: 'Terraza' });
  t.ok(await runtime.readModels!.waitFor(position, 5_000), 'read-your-writes through the process\'s projector');
  t.ok(await runtime.progress.waitFor('projector', position, 5_000), 'the projector reports to the process');
  t.ok(await runtime.progress.waitFor(REACTIONS_THROUGH, position, 5_000), 'so does the reactor: through the write');
  t.ok(((await runtime.progress.position(REACTIONS_APPENDED)) ?? -1n) >= position, 'with the head covering what its reactions appended');
  t.match(await runtime.readStore.collection('spaces').get(spaceId), { name: 'Terraza' });
  for (let i = 0; i < 200 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  t.same(published, ['pos.floor.SpaceCreated'], 'the relay published the event');
  await running.close();
  for (const name of ['relay', 'kitchen-relay', 'reactor']) t.ok(existsSync(join(dataDir, `${name}.checkpoint`)), `${name} checkpoint kept in the data dir`);
});

t.test('the process managers Comanda runs: the kitchen auto-bump always, following the settings\' minutes from the environment\'s default', async (t) => {
  const commands = {} as unknown as CommandHandler;
  const names = (env: Record<string, string>) => allReactions(commands, loadConfig(env)).map((r) => r.name);
  t.same(names({}), ['table-occupancy', 'kitchen-paper', 'kitchen-tickets', 'order-status-from-kitchen', 'kitchen-auto-bump']);
  t.same(names({ COMANDA_CLOSE_PAID_ORDERS: 'true' }), ['table-occupancy', 'kitchen-paper', 'kitchen-tickets', 'order-status-from-kitchen', 'kitchen-auto-bump', 'close-paid-orders'], 'closing paid orders only when COMANDA_CLOSE_PAID_ORDERS is set');
  const [autoBump] = allReactions(commands, loadConfig({ COMANDA_KITCHEN_AUTO_BUMP_MINUTES: '5' })).slice(-1);
  const done = (id: string) => ({ id, type: 'KitchenLineDone', data: { at: Date.now() }, metadata: {}, recordedAt: 0 } as unknown as RecordedEvent);
  t.ok(Math.abs(autoBump!.delayMs!(done('e1')) - 5 * 60_000) < 1_000, 'due five minutes after the change');
  const changed = { id: 'e2', type: 'SettingsChanged', data: { changes: { kitchenAutoBumpMinutes: 2 }, before: { kitchenAutoBumpMinutes: 5 }, by: 'm1' }, metadata: {}, recordedAt: 0 } as unknown as RecordedEvent;
  t.equal(autoBump!.delayMs!(changed), 0);
  t.ok(Math.abs(autoBump!.delayMs!(done('e3')) - 2 * 60_000) < 1_000, 'a manager\'s change applies to what the reactor meets after it');
});
