import { Writable } from 'node:stream';
import pino from 'pino';
import { InProcessBus } from '@comanda/bus';
import { loadConfig, type Config } from '@comanda/config';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { Projector } from '@comanda/projector';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/index.js';

/** An app on memory adapters with a running projector; `logs` holds every line it logged. */
export async function testApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  extraRoutes?: (app: FastifyInstance) => void,
) {
  const config = { ...loadConfig({ LOG_LEVEL: 'info', ...env }), ...overrides };
  const store = new MemoryEventStore();
  const readStore = new MemoryReadStore();
  const bus = new InProcessBus();
  const projector = new Projector({ store, readStore, projections: allProjections, logger: pino({ level: 'silent' }) });
  await projector.start();
  const logs: string[] = [];
  const logStream = new Writable({ write: (chunk, _enc, cb) => (logs.push(chunk.toString()), cb()) });
  const app = await buildApp(
    {
      config, store, readStore, bus, commands: new CommandHandler(store), gate: projector, masterKey: 'k'.repeat(64),
      health: [{ name: 'projector', check: async () => projector.state }],
    },
    { logStream },
  );
  extraRoutes?.(app);
  await app.ready();
  return {
    app, store, readStore, bus, projector, logs, config,
    close: async () => {
      await app.close();
      await projector.stop();
    },
  };
}
