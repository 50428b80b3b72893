import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@comanda/bus';
import { type PostgresServer, startPostgres } from '@comanda/postgres';
import { ServiceProcess } from './processes.js';

export interface DistributedStack {
  postgres: PostgresServer;
  nats: ServiceProcess;
  natsUrl: string;
  nodeSim: ServiceProcess;
  customer: { url: string; password: string };
  projector: ServiceProcess;
  /** Where the projector and the wallet bridge answer /health. */
  projectorUrl: string;
  bridgeUrl: string;
  walletBridge: ServiceProcess;
  apis: ServiceProcess[];
  urls: string[];
  /** Another projector process beside the first (supervised, its own port): it stands by while the first leads. */
  secondProjector(): Promise<{ process: ServiceProcess; url: string }>;
  close(): Promise<void>;
}

/**
 * The distributed shape as real processes on loopback: PostgreSQL (events and read models),
 * nats-server with JetStream, the node simulator, one projector, one wallet bridge and `replicas`
 * API processes sharing one master key. The projector is supervised (restarted when it exits).
 */
/** `apiEnv`: more environment for the API replicas (e.g. COMANDA_CHECKPOINT_POLL_MS). */
export async function startDistributed(replicas = 2, options: { beforeServices?: (postgres: PostgresServer) => Promise<void>; startTimeoutMs?: number; apiEnv?: Record<string, string> } = {}): Promise<DistributedStack> {
  const started: ServiceProcess[] = [];
  const root = mkdtempSync(join(tmpdir(), 'comanda-e2e-dist-'));
  const postgres = await startPostgres();
  try {
    // A bench's history is written into the cluster before any process reads it.
    await options.beforeServices?.(postgres);
    return await startServices(root, postgres, replicas, started, options.startTimeoutMs, options.apiEnv);
  } catch (error) {
    // A process that did not come up must not leave the others (or the cluster) running.
    await Promise.all(started.map((p) => p.stop('SIGKILL')));
    await postgres.destroy();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

async function startServices(root: string, postgres: PostgresServer, replicas: number, started: ServiceProcess[], startTimeoutMs = 90_000, apiEnv: Record<string, string> = {}): Promise<DistributedStack> {
  const natsPort = await freePort();
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const nats = new ServiceProcess('nats', ['nats-server', '-js', '-a', '127.0.0.1', '-p', String(natsPort), '-sd', join(root, 'nats')], {}, /Server is ready/);
  started.push(nats);
  await nats.start();

  const bridgePort = await freePort();
  const [restaurantPort, customerPort] = [await freePort(), await freePort()];
  const webhookSecret = 'e2e-webhook-secret-0123456789abcdef';
  const nodePassword = 'e2e-restaurant-node-password';
  const customerPassword = 'e2e-customer-node-password';
  const nodeSim = new ServiceProcess('node-sim', 'services/node-sim/dist/main.js', {
    NODE_SIM_DATA_DIR: join(root, 'node-sim'),
    NODE_SIM_LOG_LEVEL: 'warn',
    NODE_SIM_RESTAURANT_PORT: String(restaurantPort),
    NODE_SIM_CUSTOMER_PORT: String(customerPort),
    NODE_SIM_RESTAURANT_PASSWORD: nodePassword,
    NODE_SIM_CUSTOMER_PASSWORD: customerPassword,
    NODE_SIM_RESTAURANT_WEBHOOK_SECRET: webhookSecret,
    NODE_SIM_RESTAURANT_WEBHOOK_URLS: `http://127.0.0.1:${bridgePort}/webhooks/node`,
  }, /NODE_SIM_READY/);
  started.push(nodeSim);
  await nodeSim.start();

  const common = {
    COMANDA_EVENTSTORE_URL: postgres.url,
    COMANDA_READSTORE_URL: postgres.url,
    COMANDA_NATS_URL: natsUrl,
    COMANDA_MASTER_KEY: 'e2e-master-key-shared-by-every-replica-0123456789',
    COMANDA_WEBHOOK_SECRET: webhookSecret,
    COMANDA_NODE_URL: `http://127.0.0.1:${restaurantPort}`,
    COMANDA_NODE_PASSWORD: nodePassword,
    COMANDA_ADMIN_PIN: '1234',
    COMANDA_WALLET_PASSWORD: 'e2e-wallet-password',
    COMANDA_TIMEZONE: 'America/Mexico_City',
  };
  const projectorPort = await freePort();
  const projector = new ServiceProcess('projector', 'services/projector/dist/main.js', { ...common, COMANDA_DATA_DIR: join(root, 'projector'), PORT: String(projectorPort) }, /projector live/, true);
  projector.startTimeoutMs = startTimeoutMs;
  started.push(projector);
  await projector.start();
  // It announces itself in its info-level log.
  const walletBridge = new ServiceProcess('wallet-bridge', 'services/wallet-bridge/dist/main.js', { ...common, COMANDA_DATA_DIR: join(root, 'bridge'), PORT: String(bridgePort), LOG_LEVEL: 'info' }, /wallet-bridge listening/);
  started.push(walletBridge);
  await walletBridge.start();
  const apis: ServiceProcess[] = [];
  const urls: string[] = [];
  for (let i = 0; i < replicas; i++) {
    const port = await freePort();
    const api = new ServiceProcess(`api-${i}`, 'services/api/dist/main.js', { ...common, ...apiEnv, COMANDA_DATA_DIR: join(root, `api-${i}`), PORT: String(port) }, /api listening on (http:\/\/\S+)/);
    apis.push(api);
    started.push(api);
  }
  // Replicas start together, as an orchestrator would start them: the first admin is created once.
  urls.push(...(await Promise.all(apis.map((a) => a.start()))));
  const extra: ServiceProcess[] = [];
  const secondProjector = async () => {
    const port = await freePort();
    const p = new ServiceProcess('projector-2', 'services/projector/dist/main.js', { ...common, COMANDA_DATA_DIR: join(root, 'projector-2'), PORT: String(port), LOG_LEVEL: 'info' }, /projector (standing by|live)/, true);
    extra.push(p);
    started.push(p);
    await p.start();
    return { process: p, url: `http://127.0.0.1:${port}` };
  };
  return {
    secondProjector,
    postgres, nats, natsUrl, nodeSim, projector, walletBridge, apis, urls,
    projectorUrl: `http://127.0.0.1:${projectorPort}`, bridgeUrl: `http://127.0.0.1:${bridgePort}`,
    customer: { url: `http://127.0.0.1:${customerPort}`, password: customerPassword },
    close: async () => {
      await Promise.all([...apis, walletBridge, projector, ...extra].map((p) => p.stop()));
      await Promise.all([nodeSim.stop(), nats.stop()]);
      await postgres.destroy();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
