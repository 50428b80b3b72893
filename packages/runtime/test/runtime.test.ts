import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteAttemptCounter } from '@comanda/attempts';
import { loadConfig } from '@comanda/config';
import { FileCheckpoint, type Part, createRuntime } from '../src/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'comanda-runtime-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const config = loadConfig({ COMANDA_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });

t.test('parts start in order, stop in reverse, and /health covers every part the process runs', async (t) => {
  const log: string[] = [];
  const follower = { state: 'live', position: 7n as bigint | null };
  const part = (name: string, extra: Partial<Part> = {}): Part => ({
    name,
    prepare: () => (log.push(`prepare ${name}`), () => log.push(`release ${name}`)),
    async start(rt) {
      log.push(`start ${name}`);
      if (name === 'b') rt.follow('b', follower);
      return { listening: (url) => void log.push(`listening ${name} ${url.startsWith('http://')}`), stop: async () => void log.push(`stop ${name}`) };
    },
    ...extra,
  });
  const running = await createRuntime(config, [part('a'), part('b')]);
  t.same(log, ['prepare a', 'prepare b', 'start a', 'start b', 'listening a true', 'listening b true']);
  t.type(running.runtime.checkpoint('relay'), FileCheckpoint, 'no read store configured: checkpoints are files in the data dir');
  t.type(running.runtime.attempts, SqliteAttemptCounter, 'and login attempts are counted in a file of their own there');
  t.ok(existsSync(join(dataDir, 'attempts.db')));

  const health = async (path: string) => {
    const res = await fetch(`${running.url}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  t.match(await health('/health'), { status: 200, body: { status: 'ok', checks: { eventStore: 'up', readStore: 'up', bus: 'up', b: 'live' } } });
  t.match(await health('/health/live'), { status: 200 });
  follower.state = 'failed';
  t.match(await health('/health/ready'), { status: 503, body: { status: 'not_ready', waitingFor: ['b'] } }, 'a failed part makes the process not ready');
  t.match(await health('/health'), { status: 503, body: { checks: { b: 'failed' } } });
  const metrics = running.runtime.metrics;
  t.match(await metrics.render(), /comanda_lag_events\{part="b"\}/, 'the follower\'s lag is on /metrics');

  log.length = 0;
  await running.close();
  t.same(log, ['stop b', 'stop a', 'release b', 'release a'], 'stopped in reverse order, locks released last');
});

t.test('a part that fails to start stops what had started, and the error reaches the main', async (t) => {
  const log: string[] = [];
  const ok: Part = { name: 'ok', async start() { return { stop: async () => void log.push('stop ok') }; } };
  const broken: Part = { name: 'broken', async start() { throw new Error('cannot start'); } };
  await t.rejects(createRuntime(config, [ok, broken]), { message: 'cannot start' });
  t.same(log, ['stop ok']);
});

t.test('without a node configured there is none; with COMANDA_NODE_URL every part gets the same client', async (t) => {
  const seen: unknown[] = [];
  const probe: Part = { name: 'probe', async start(rt) { seen.push(rt.node?.access); } };
  const none = await createRuntime(config, [probe], { listen: false });
  await none.close();
  const withNode = await createRuntime(loadConfig({ COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMANDA_NODE_URL: 'http://127.0.0.1:9', COMANDA_NODE_PASSWORD: 'pw' }), [probe], { listen: false });
  t.notOk(withNode.runtime.health.some((h) => h.name === 'lightningNode'), 'no part uses the node: its health is not the process\'s');
  await withNode.close();
  t.same(seen, [undefined, { url: 'http://127.0.0.1:9', password: 'pw' }]);
  const user = await createRuntime(loadConfig({ COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMANDA_NODE_URL: 'http://127.0.0.1:9', COMANDA_NODE_PASSWORD: 'pw' }), [{ ...probe, usesNode: true }], { listen: false });
  const check = user.runtime.health.find((h) => h.name === 'lightningNode');
  t.ok(check, 'a part that uses the node makes the node part of the process\'s health');
  await t.rejects(check!.check(), 'an unreachable node fails the check');
  await user.close();
});
