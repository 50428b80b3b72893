import { loadConfigOrExit } from '@comanda/config';
import { DataDirBusy } from '@comanda/ops';
import pino from 'pino';
import { startComanda } from './compose.js';

const config = loadConfigOrExit();

let comanda: Awaited<ReturnType<typeof startComanda>>;
try {
  comanda = await startComanda(config);
} catch (error) {
  if (!(error instanceof DataDirBusy)) throw error;
  pino().fatal({ event: 'data-dir-busy', dataDir: error.dataDir, pid: error.pid }, `${error.message}: not starting a second one`);
  process.exit(1);
}
comanda.announcements.info(
  { event: 'listening', url: comanda.url, dataDir: config.dataDir },
  `Comanda is listening on ${comanda.url} (data in ${config.dataDir}; API docs at ${comanda.url}/swagger)`,
);

const stop = async (signal: string) => {
  comanda.announcements.info({ event: 'stopping', signal }, `${signal}: finishing requests in flight, then stopping`);
  await comanda.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
