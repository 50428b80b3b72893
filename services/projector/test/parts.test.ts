import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@comanda/config';
import { FLOOR_STREAM, floor } from '@comanda/domain';
import { createRuntime } from '@comanda/runtime';
import { kitchenRelay, projections, reactions, relay } from '../src/index.js';

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
  t.match(await runtime.readStore.collection('spaces').get(spaceId), { name: 'Terraza' });
  for (let i = 0; i < 200 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  t.same(published, ['pos.floor.SpaceCreated'], 'the relay published the event');
  await running.close();
  for (const name of ['relay', 'kitchen-relay', 'reactor']) t.ok(existsSync(join(dataDir, `${name}.checkpoint`)), `${name} checkpoint kept in the data dir`);
});
