import pino from 'pino';
import { ConfigError } from './config.js';
import { loadConfig } from './config-load.js';
import { startNetwork } from './network.js';

// `npm run node-sim`: the simulated network as a process. Prints each node's URL and secrets, and a
// machine-readable line (NODE_SIM_READY {...}) for scripts and tests.

const log = pino({ level: process.env.NODE_SIM_LOG_LEVEL ?? 'info', redact: ['*.password', '*.authorization', 'req.headers.authorization'] }, pino.destination(2));

async function main(): Promise<void> {
  const config = loadConfig();
  const network = await startNetwork({ ...config, logger: log });
  const nodes = network.nodes.map((n) => ({ name: n.name, url: n.url, nodeId: n.nodeId, password: n.password, limitedPassword: n.limitedPassword, webhookSecret: n.webhookSecret }));
  for (const n of nodes) {
    process.stdout.write(`${n.name.padEnd(12)} ${n.url}  password=${n.password}  limited=${n.limitedPassword}  webhookSecret=${n.webhookSecret}\n`);
  }
  process.stdout.write(`NODE_SIM_READY ${JSON.stringify({ nodes })}\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    network.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`node-sim: ${error instanceof ConfigError ? error.message : (error as Error).stack}\n`);
  process.exit(1);
});
