import { loadConfigOrExit } from '@comanda/config';
import { createRuntime } from '@comanda/runtime';
import { kitchenRelay, projections, reactions, relay } from './parts.js';

/**
 * The projector process (distributed shape, exactly one per deployment): projections, relays and
 * process managers over the shared stores, with /health on PORT. Crash-only: when a part stops (a
 * projection bug, the bus or a store away too long) the process exits 1, and its supervisor starts
 * it again from the durable checkpoints.
 */
const config = loadConfigOrExit([
  ['readStoreUrl', 'COMANDA_READSTORE_URL', 'is required for the projector on its own (its read models must be shared)'],
]);

let running: Awaited<ReturnType<typeof createRuntime>>;
try {
  running = await createRuntime(config, [projections(), relay(), kitchenRelay(), reactions()], { exitWhenFailed: true });
} catch (error) {
  console.error(`projector did not start: ${(error as Error).message}`);
  process.exit(1);
}
console.log(`projector live at position ${String((await running.runtime.readStore.getCheckpoint('projector')) ?? 'none')}; health on ${running.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await running.close();
    process.exit(0);
  });
}
