import type { Bus } from '@comanda/bus';
import type { Config } from '@comanda/config';
import { SqliteEventStore, type CommandObserver, type EventStore } from '@comanda/event-store';
import { Metrics, commandObserver, instrumentBus, instrumentStore } from '@comanda/metrics';
import { BackupSchedule, acquireDataDirLock } from '@comanda/ops';
import type { Logger } from 'pino';

interface Follower {
  position: bigint | null;
}

/**
 * The operational side of the standalone (issue 17), kept apart from the composition: the data dir
 * lock, the metrics registry and what feeds it, scheduled backups. `compose.ts` calls these in order.
 */
export class Operations {
  readonly metrics = new Metrics();
  private readonly lock?: { release(): void };
  private backups?: BackupSchedule;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {
    // One writer per SQLite log: a second standalone, or the admin command line, is refused while we run.
    if (!config.eventStoreUrl) this.lock = acquireDataDirLock(config.dataDir);
  }

  store<S extends EventStore>(store: S): S {
    return instrumentStore(store, this.metrics);
  }

  bus<B extends Bus>(bus: B): B {
    return instrumentBus(bus, this.metrics);
  }

  get commandObserver(): CommandObserver {
    return commandObserver(this.metrics);
  }

  /** Lag (head − position) of each part that follows the log, read at scrape time. */
  follow(parts: Record<string, Follower | { position(): bigint | null }>): void {
    for (const [name, part] of Object.entries(parts)) {
      this.metrics.watchFollower(name, () => (typeof part.position === 'function' ? part.position() : part.position));
    }
  }

  /** Counts what each reconciliation pass's record did: recorded now, already recorded, or failed. */
  reconciled<P>(record: (payment: P) => Promise<boolean>): (payment: P) => Promise<boolean> {
    return async (payment) => {
      try {
        const recorded = await record(payment);
        this.metrics.reconciliations.inc({ outcome: recorded ? 'recorded' : 'already_recorded' });
        return recorded;
      } catch (error) {
        this.metrics.reconciliations.inc({ outcome: 'failed' });
        throw error;
      }
    };
  }

  /** Scheduled backups of the SQLite log when COMANDA_BACKUP_DIR is set. */
  startBackups(store: EventStore): void {
    const { backupDir, backupEverySeconds, backupKeep, dataDir } = this.config;
    if (!backupDir) return;
    if (!(store instanceof SqliteEventStore)) {
      this.logger.warn({ backupDir }, 'COMANDA_BACKUP_DIR is ignored: scheduled backups copy the SQLite log; back up EventStoreDB or PostgreSQL with their own tools');
      return;
    }
    this.backups = new BackupSchedule({
      dir: backupDir, everySeconds: backupEverySeconds, keep: backupKeep, dataDir, store, metrics: this.metrics,
      logger: this.logger.child({ part: 'backups' }),
    });
    this.backups.start();
    this.logger.info({ backupDir, everySeconds: backupEverySeconds, keep: backupKeep }, 'scheduled backups on');
  }

  /** Before the store closes: a backup in progress finishes first. */
  async stopBackups(): Promise<void> {
    await this.backups?.stop();
  }

  release(): void {
    this.lock?.release();
  }
}
