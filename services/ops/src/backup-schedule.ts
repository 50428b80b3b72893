import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteEventStore } from '@comanda/event-store';
import type { Metrics } from '@comanda/metrics';
import type { Logger } from 'pino';
import { backupEventLog, manifestPath } from './backup.js';

const NAME = /^comanda-\d{8}T\d{6}(\d{3})?Z\.db$/;

/** `comanda-20260314T221500123Z.db`: names sort in time order. */
export const scheduledName = (at: Date) => `comanda-${at.toISOString().replace(/[-:.]/g, '')}.db`;

/**
 * Backs the running standalone's log up every `everySeconds` into `dir` and keeps the newest `keep`
 * (with their manifests). A failed backup is logged and counted, and the next one is tried on time.
 */
export class BackupSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly options: {
      dir: string;
      everySeconds: number;
      keep: number;
      dataDir: string;
      store?: SqliteEventStore;
      logger: Logger;
      metrics?: Metrics;
      now?: () => Date;
    },
  ) {}

  start(): void {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    this.timer = setInterval(() => void this.runOnce(), this.options.everySeconds * 1000);
    this.timer.unref();
  }

  /** One backup now, then pruning; resolves when done (never rejects). */
  runOnce(): Promise<void> {
    this.running ??= this.backup().finally(() => (this.running = undefined));
    return this.running;
  }

  private async backup(): Promise<void> {
    const { dir, keep, dataDir, store, logger, metrics } = this.options;
    const out = join(dir, scheduledName((this.options.now ?? (() => new Date()))()));
    try {
      const manifest = await backupEventLog({ dataDir, out, ...(store ? { store } : {}) });
      metrics?.backups.inc({ outcome: 'ok' });
      logger.info({ file: out, headPosition: manifest.headPosition, sha256: manifest.sha256 }, 'backup written');
      const old = readdirSync(dir).filter((f) => NAME.test(f)).sort().slice(0, -keep);
      for (const f of old) {
        rmSync(join(dir, f), { force: true });
        rmSync(manifestPath(join(dir, f)), { force: true });
      }
    } catch (err) {
      metrics?.backups.inc({ outcome: 'failed' });
      logger.error({ err, file: out }, 'backup failed');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
