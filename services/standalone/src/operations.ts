import { privateDataDir } from '@comanda/config';
import { SqliteEventStore } from '@comanda/event-store';
import { BackupSchedule, acquireDataDirLock } from '@comanda/ops';
import type { Part } from '@comanda/runtime';

/**
 * The operational side of the standalone: the data dir made private to this user, its lock, taken before the SQLite log
 * is opened (one writer: a second standalone, or the admin command line, is refused while we run),
 * and scheduled backups of the log when COMANDA_BACKUP_DIR is set. Metrics come with every runtime.
 */
export const operations = (): Part => ({
  name: 'operations',
  prepare(config) {
    privateDataDir(config.dataDir);
    if (config.eventStoreUrl) return;
    const lock = acquireDataDirLock(config.dataDir);
    return () => lock.release();
  },
  async start(rt) {
    const { backupDir, backupEverySeconds, backupKeep, dataDir } = rt.config;
    if (!backupDir) return;
    const store = rt.store;
    if (!(store instanceof SqliteEventStore)) {
      rt.logger.warn({ backupDir }, 'COMANDA_BACKUP_DIR is ignored: scheduled backups copy the SQLite log; back up EventStoreDB or PostgreSQL with their own tools');
      return;
    }
    const backups = new BackupSchedule({
      dir: backupDir, everySeconds: backupEverySeconds, keep: backupKeep, dataDir, store, metrics: rt.metrics,
      logger: rt.logger.child({ part: 'backups' }),
    });
    backups.start();
    rt.logger.info({ backupDir, everySeconds: backupEverySeconds, keep: backupKeep }, 'scheduled backups on');
    // Stopped before the store closes: a backup in progress finishes first.
    return { stop: () => backups.stop() };
  },
});
