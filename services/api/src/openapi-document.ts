import { Writable } from 'node:stream';
import { MemoryAttemptCounter } from '@comanda/attempts';
import { InProcessBus } from '@comanda/bus';
import { loadConfig } from '@comanda/config';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { buildApp } from './app.js';

/**
 * The OpenAPI document the API serves at /swagger/json, made without a running service (an app on
 * memory adapters, never listening): what `@comanda/client` generates its types from at build time.
 */
export async function openApiDocument(): Promise<unknown> {
  const store = new MemoryEventStore();
  const app = await buildApp(
    {
      config: loadConfig({ LOG_LEVEL: 'silent', COMANDA_RATES: 'USD=1' }), store, readStore: new MemoryReadStore(), attempts: new MemoryAttemptCounter(), bus: new InProcessBus(),
      commands: new CommandHandler(store), gate: { waitFor: async () => true }, health: [], masterKey: 'openapi-document-only'.padEnd(64, '.'),
    },
    { logStream: new Writable({ write: (_chunk, _encoding, done) => done() }) },
  );
  try {
    return (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  } finally {
    await app.close();
  }
}
