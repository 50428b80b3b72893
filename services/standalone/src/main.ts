import { loadConfigOrExit } from '@comanda/config';
import { startComanda } from './compose.js';

const config = loadConfigOrExit();

const comanda = await startComanda(config);
console.log(`Comanda is listening on ${comanda.url} (data in ${config.dataDir}; API docs at ${comanda.url}/swagger)`);

const stop = async (signal: string) => {
  console.log(`${signal}: finishing requests in flight, then stopping`);
  await comanda.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
