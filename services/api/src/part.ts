import type { Part } from '@comanda/runtime';
import { buildApp } from './app.js';
import { bootstrapFirstAdmin, firstAdminAnnouncer } from './auth/bootstrap.js';
import { PollingCheckpointGate } from './polling-gate.js';

/**
 * The HTTP API. Read-your-writes waits on the projector when it runs in this process, and otherwise
 * polls its checkpoint in the shared read store (any number of API replicas). The wallet endpoints
 * reach the process's Lightning node (configured, or simulated by the standalone).
 */
export const api = (): Part => ({
  name: 'api',
  usesNode: true,
  async start(rt) {
    const { config, store, readStore, bus, commands, metrics } = rt;
    let gate = rt.readModels;
    if (!gate) {
      gate = new PollingCheckpointGate(() => readStore.getCheckpoint('projector'));
      metrics.watchFollower('projector', () => readStore.getCheckpoint('projector'));
      // Ready once the projector's read models include every event that was in the log when this
      // replica started (they never fall back behind that point: checked until reached, then remembered).
      const headAtStart = await store.headPosition();
      let caughtUp = headAtStart === null;
      rt.health.push({
        name: 'readModels',
        check: async () => {
          caughtUp ||= ((await readStore.getCheckpoint('projector')) ?? -1n) >= headAtStart!;
          return caughtUp ? 'up' : 'catching up';
        },
      });
    }
    const node = rt.node;
    const masterKey = rt.secret('master-key', config.masterKey);
    await bootstrapFirstAdmin(commands, masterKey, config, firstAdminAnnouncer(rt.announcements, config.dataDir));
    const app = await buildApp(
      { config, store, readStore, bus, commands, gate, health: rt.health, masterKey, metrics, ...(node ? { node: node.client } : {}) },
      rt.logStream ? { logStream: rt.logStream } : {},
    );
    rt.useApp(app);
  },
});
