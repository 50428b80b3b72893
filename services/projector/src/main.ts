import { loadConfigOrExit } from '@comanda/config';
import { type Leadership, becomeLeader } from '@comanda/postgres';
import { createRuntime } from '@comanda/runtime';
import { kitchenRelay, printing, projections, reactions, relay } from './parts.js';
import { serveStandby } from './standby.js';

/**
 * The projector process (distributed shape): projections, relays and process managers over the shared
 * stores, with /health on PORT. Crash-only: when a part stops (a projection bug, a store away too
 * long) the process exits 1, and its supervisor starts it again from the durable checkpoints.
 *
 * On PostgreSQL two or more may run: one leads (a PostgreSQL advisory lock on a connection of its
 * own), the others stand by and answer /health as `standby`; when the leader dies (kill -9 included)
 * its lock goes with its connection and a standby takes over within a second or two. A leader that
 * loses its lock connection exits at once, before another can have started. With another read store
 * (MongoDB) there is no lock: run exactly one.
 */
const config = loadConfigOrExit([
  ['readStoreUrl', 'COMANDA_READSTORE_URL', 'is required for the projector on its own (its read models must be shared)'],
]);

const lockUrl = [config.readStoreUrl, config.eventStoreUrl].find((url) => url && /^postgres(ql)?:/.test(url));
const stopping = new AbortController();
let leadership: Leadership | undefined;
if (lockUrl) {
  const standby = await serveStandby(config.host, config.port);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stopping.abort());
  try {
    leadership = await becomeLeader(lockUrl, 'comanda-projector', {
      signal: stopping.signal,
      onStandby: () => console.log(`projector standing by: another projector leads; health on ${standby.url}`),
    });
  } catch {
    await standby.close();
    process.exit(0);
  }
  await standby.close();
  void leadership.lost.then((error) => {
    console.error(`projector lost its lead (${error.message}): exiting so that one projector alone applies events`);
    process.exit(1);
  });
}

let running: Awaited<ReturnType<typeof createRuntime>>;
try {
  running = await createRuntime(config, [projections(), relay(), kitchenRelay(), reactions(), printing()], { exitWhenFailed: true });
} catch (error) {
  console.error(`projector did not start: ${(error as Error).message}`);
  process.exit(1);
}
console.log(`projector live at position ${String((await running.runtime.readStore.getCheckpoint('projector')) ?? 'none')}; health on ${running.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.removeAllListeners(signal);
  process.once(signal, async () => {
    await running.close();
    await leadership?.release();
    process.exit(0);
  });
}
