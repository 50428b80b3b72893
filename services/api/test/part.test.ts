import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@comanda/config';
import { createRuntime } from '@comanda/runtime';
import { api } from '../src/index.js';

/** The API part on its own (services/api/src/main.ts): no projector in the process, a configured node. */
t.test('the api part alone: read models polled from the shared checkpoint, the configured node in its health', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-api-part-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMANDA_ADMIN_PIN: '1234',
    COMANDA_NODE_URL: 'http://127.0.0.1:9', COMANDA_NODE_PASSWORD: 'node-password',
  });
  const running = await createRuntime(config, [api()], { listen: false });
  t.teardown(() => running.close());
  const res = await running.app!.inject({ method: 'GET', url: '/health' });
  const checks = (res.json() as { checks: Record<string, string> }).checks;
  t.same(Object.keys(checks).sort(), ['bus', 'eventStore', 'lightningNode', 'readModels', 'readStore'], 'what this process runs, and nothing else');
  t.equal(checks.readModels, 'up', 'an empty log: the read models are caught up');
  t.match(checks.lightningNode, /^down/, 'the node is the configured one (nothing listens there)');
  t.equal(res.statusCode, 503);
  const wallet = await running.app!.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin', pin: '1234' } });
  t.equal(wallet.statusCode, 200, 'the first admin was bootstrapped by the part');
});
