import { join } from 'node:path';
import { ALL_REPORTS, LiveReports } from '@comanda/analytics';
import { type Part, REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import { buildApp } from './app.js';
import { bootstrapFirstAdmin, firstAdminAnnouncer } from './auth/bootstrap.js';
import { CheckpointWatch, pollEvery } from './checkpoint-watch.js';
import type { ConsistencyGate } from './deps.js';
import { ReactionsGate } from './reactions-gate.js';

/** The owner's reports (packages/analytics): in-memory folds of the log from position 0, then live. */
export interface ReportsPart extends Part {
  live?: LiveReports;
}

export interface ReportsOptions {
  /**
   * Keep the reports' states in `<data dir>/reports.checkpoint.json` (the standalone: one process
   * owns the data dir): a restart folds only the events after it, not the whole log again.
   */
  checkpoint?: boolean;
}

/**
 * How often a live service saves the checkpoint when the log has moved. A save's snapshot (encoding
 * every report's state) runs on the event loop: rare enough not to be felt.
 */
const CHECKPOINT_EVERY_MS = 5 * 60_000;

/**
 * Folds the reports once the process listens, after the read models have caught up, without waiting:
 * a restart after a year of history is ready for the tablets without waiting for the reports' fold of
 * the whole log (most of a long restart when it ran beside the start), and the fold then runs in
 * pages between requests. Neither the API nor readiness waits for it: /reports answers 503 until the
 * reports are built. Health: `reports` (optional).
 */
export function reports(options: ReportsOptions = {}): ReportsPart {
  const part: ReportsPart = {
    name: 'reports',
    async start(rt) {
      const checkpoint = options.checkpoint
        ? { file: join(rt.config.dataDir, 'reports.checkpoint.json'), everyMs: CHECKPOINT_EVERY_MS }
        : undefined;
      const live = new LiveReports(rt.store, ALL_REPORTS, rt.config.timezone, rt.logger.child({ part: 'reports' }), checkpoint);
      part.live = live;
      rt.health.push({ name: 'reports', check: async () => live.state, optional: true });
      return {
        // A failed fold shows on /health (`reports: failed`) and /reports; it does not stop the process.
        listening: () => void live.start().catch(() => {}),
        stop: () => live.stop(),
      };
    },
  };
  return part;
}

export interface ApiOptions {
  /** The reports part of this process: served on /reports. */
  reports?: ReportsPart;
}

/**
 * The HTTP API. Read-your-writes waits for the write's reactions and the read models that show them:
 * on the projector and reactor of this process when they run here, otherwise on their checkpoints in
 * the shared read store (any number of API replicas). The wallet endpoints
 * reach the process's Lightning node (configured, or simulated by the standalone).
 */
export const api = (options: ApiOptions = {}): Part => ({
  name: 'api',
  usesNode: true,
  async start(rt) {
    const { config, store, readStore, attempts, bus, commands, metrics } = rt;
    // The projector and the reactor beside this API (the standalone) report to the process; the
    // write's reactions are waited for as a replica waits for them (ReactionsGate).
    let gate: ConsistencyGate | undefined = rt.readModels ? new ReactionsGate(rt.progress) : undefined;
    let checkpoints: CheckpointWatch | undefined;
    if (!gate) {
      // Read-your-writes through the projector's checkpoint, and the reactor's for the write's
      // reactions; `through` before `appended` (see CheckpointWatch).
      checkpoints = new CheckpointWatch(readStore, [REACTIONS_THROUGH, REACTIONS_APPENDED, 'projector'], pollEvery(config.checkpointPollMs));
      const watch = checkpoints;
      gate = new ReactionsGate(watch);
      metrics.watchFollower('projector', () => watch.position('projector'));
      // Ready once the projector's read models include every event that was in the log when this
      // replica started (they never fall back behind that point: checked until reached, then remembered).
      const headAtStart = await store.headPosition();
      let caughtUp = headAtStart === null;
      rt.health.push({
        name: 'readModels',
        check: async () => {
          caughtUp ||= ((await watch.position('projector')) ?? -1n) >= headAtStart!;
          return caughtUp ? 'up' : 'catching up';
        },
      });
    }
    const node = rt.node;
    const masterKey = rt.secret('master-key', config.masterKey);
    await bootstrapFirstAdmin(commands, masterKey, config, firstAdminAnnouncer(rt.announcements, config.dataDir));
    const app = await buildApp(
      { config, store, readStore, attempts, bus, commands, gate, health: rt.health, masterKey, metrics, ...(checkpoints ? { checkpoints } : {}), ...(node ? { node: node.client } : {}), ...(options.reports?.live ? { reports: options.reports.live } : {}) },
      rt.logStream ? { logStream: rt.logStream } : {},
    );
    rt.useApp(app);
    return checkpoints ? { stop: () => checkpoints.close() } : undefined;
  },
});
