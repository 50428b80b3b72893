import { loadConfigOrExit } from '@comanda/config';
import { startComanda } from './compose.js';

const config = loadConfigOrExit();

const comanda = await startComanda(config);
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
