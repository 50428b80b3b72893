import { loadConfigOrExit } from '@comanda/config';
import { join } from 'node:path';
import { EventLogFileError, asEventLogFileError } from '@comanda/event-store';
import { startComanda } from './compose.js';

const config = loadConfigOrExit();

let comanda: Awaited<ReturnType<typeof startComanda>>;
try {
  comanda = await startComanda(config);
} catch (error) {
  // A damaged event log is the operator's to fix: one line naming the file and what to do, no trace.
  const fileError = asEventLogFileError(error, join(config.dataDir, 'events.db'));
  if (!(fileError instanceof EventLogFileError)) throw error;
  console.error(fileError.message);
  process.exit(1);
}
console.log(`Comanda is listening on ${comanda.url} (data in ${config.dataDir}; API docs at ${comanda.url}/swagger)`);

const stop = async (signal: string) => {
  console.log(`${signal}: finishing requests in flight (at most ${config.shutdownTimeoutMs} ms), then stopping`);
  // Bounded: a client that never lets go cannot keep the process alive past the timeout.
  const deadline = setTimeout(() => {
    console.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms (COMANDA_SHUTDOWN_TIMEOUT_MS): closing the remaining connections and exiting`);
    comanda.app.server.closeAllConnections();
    process.exit(1);
  }, config.shutdownTimeoutMs);
  deadline.unref();
  await comanda.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
