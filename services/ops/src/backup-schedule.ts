import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteEventStore } from '@comanda/event-store';
import type { Metrics } from '@comanda/metrics';
import type { Logger } from 'pino';
import { backupEventLog, manifestPath } from './backup.js';

const NAME = /^comanda-\d{8}T\d{6}(\d{3})?Z\.db$/;

/** `comanda-20260314T221500123Z.db`: names sort in time order. */
export const scheduledName = (at: Date) => `comanda-${at.toISOString().replace(/[-:.]/g, '')}.db`;

/** What a schedule needs: where backups go, how often, how many to keep, and what it backs up. */
type BackupScheduleOptions = {
  dir: string;
  everySeconds: number;
  keep: number;
  dataDir: string;
  store?: SqliteEventStore;
  logger: Logger;
  metrics?: Metrics;
  now?: () => Date;
};

/**
 * Backs the running standalone's log up every `everySeconds` into `dir` and keeps the newest `keep`
 * (with their manifests). A failed backup is logged and counted, and the next one is tried on time.
 */
export class BackupSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly options: BackupScheduleOptions;

  constructor(options: BackupScheduleOptions) {
    this.options = options;
  }

  /**
   * The first backup is due one interval after the newest one already in the directory (at once when
   * that is past, or when there is none), so restarting the service more often than the interval never
   * skips backups.
   */
  start(): void {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    const every = this.options.everySeconds * 1000;
    const newest = this.existing().map((f) => statSync(join(this.options.dir, f)).mtimeMs).sort((a, b) => b - a)[0];
    const due = newest === undefined ? 0 : Math.max(0, newest + every - this.now().getTime());
    this.timer = setTimeout(() => {
      void this.runOnce();
      this.timer = setInterval(() => void this.runOnce(), every);
      this.timer.unref();
    }, due);
    this.timer.unref();
  }

  private now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  private existing(): string[] {
    return readdirSync(this.options.dir).filter((f) => NAME.test(f));
  }

  /** One backup now, then pruning; resolves when done (never rejects). */
  runOnce(): Promise<void> {
    this.running ??= this.backup().finally(() => (this.running = undefined));
    return this.running;
  }

  private async backup(): Promise<void> {
    const { dir, keep, dataDir, store, logger, metrics } = this.options;
    const out = join(dir, scheduledName(this.now()));
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const manifest = await backupEventLog({ dataDir, out, ...(store ? { store } : {}) });
      metrics?.backups.inc({ outcome: 'ok' });
      logger.info({ file: out, headPosition: manifest.headPosition, sha256: manifest.sha256 }, 'backup written');
      const old = this.existing().sort().slice(0, -keep);
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
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}
