import { api, reports } from '@comanda/api';
import type { Config } from '@comanda/config';
import { kitchenRelay, printing, projections, reactions, relay } from '@comanda/projector';
import { createRuntime } from '@comanda/runtime';
import type { SimNetwork } from '@comanda/node-sim';
import { walletBridge } from '@comanda/wallet-bridge';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { operations } from './operations.js';
import { simulatedNode } from './simulated-node.js';

export interface RunningComanda {
  app: FastifyInstance;
  url: string;
  /** Structured start-up announcements (printed whatever LOG_LEVEL says). */
  announcements: Logger;
  /** The built-in simulated network, when no COMANDA_NODE_URL is configured. */
  network?: SimNetwork;
  close(): Promise<void>;
}

/**
 * One process with every part. The adapters come from configuration only: embedded (SQLite, memory,
 * in-process) by default, PostgreSQL / EventStoreDB / MongoDB / NATS when their URLs are set. The
 * order matters: read models are rebuilt before the API listens, and the node exists before the
 * wallet bridge and the API use it.
 */
export async function startComanda(config: Config, options: { logStream?: DestinationStream } = {}): Promise<RunningComanda> {
  const node = simulatedNode();
  // The owner's reports fold the log once the API listens, after the read models have caught up;
  // readiness does not wait for them (/reports answers 503 until they are built). Their checkpoint
  // in the data dir makes a restart fold only what the log gained since.
  const ownerReports = reports({ checkpoint: true });
  const running = await createRuntime(
    config,
    [operations(), ownerReports, projections(), relay(), kitchenRelay(), reactions(), printing(), node, walletBridge(), api({ reports: ownerReports })],
    options.logStream ? { logStream: options.logStream } : {},
  );
  return {
    app: running.app!,
    url: running.url!,
    announcements: running.runtime.announcements,
    ...(node.network ? { network: node.network } : {}),
    close: running.close,
  };
}
