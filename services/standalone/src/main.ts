import { DataDirNotPrivate, loadConfigOrExit } from '@comanda/config';
import { join } from 'node:path';
import { EventLogFileError, asEventLogFileError } from '@comanda/event-store';
import { DataDirBusy } from '@comanda/ops';
import pino from 'pino';
import { announceStart, startInfo } from './announce.js';
import { startComanda } from './compose.js';

const config = loadConfigOrExit();

let comanda: Awaited<ReturnType<typeof startComanda>>;
try {
  comanda = await startComanda(config);
} catch (error) {
  if (error instanceof DataDirBusy) {
    pino().fatal({ event: 'data-dir-busy', dataDir: error.dataDir }, `${error.message}: not starting a second one`);
    process.exit(1);
  }
  if (error instanceof DataDirNotPrivate) {
    pino().fatal({ event: 'data-dir-not-private', path: error.path }, error.message);
    process.exit(1);
  }
  // A damaged event log is the operator's to fix: one line naming the file and what to do, no trace.
  const fileError = asEventLogFileError(error, join(config.dataDir, 'events.db'));
  if (!(fileError instanceof EventLogFileError)) throw error;
  pino().fatal({ event: 'event-log-unusable', file: fileError.file }, fileError.message);
  process.exit(1);
}
announceStart(startInfo(config, comanda.url), comanda.announcements);

const stop = async (signal: string) => {
  comanda.announcements.info({ event: 'stopping', signal }, `${signal}: finishing requests in flight (at most ${config.shutdownTimeoutMs} ms), then stopping`);
  // Bounded: a client that never lets go cannot keep the process alive past the timeout.
  const deadline = setTimeout(() => {
    comanda.announcements.error({ event: 'shutdown-timeout' }, `Shutdown took longer than ${config.shutdownTimeoutMs} ms (COMANDA_SHUTDOWN_TIMEOUT_MS): closing the remaining connections and exiting`);
    comanda.app.server.closeAllConnections();
    process.exit(1);
  }, config.shutdownTimeoutMs);
  deadline.unref();
  await comanda.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
