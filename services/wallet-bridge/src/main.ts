import { loadConfigOrExit } from '@comanda/config';
import { createRuntime } from '@comanda/runtime';
import { walletBridge } from './part.js';

/**
 * The wallet bridge on its own (distributed shape): the webhook receiver (200 once JetStream has
 * acknowledged the payment), the durable payment consumer, and reconciliation with the node, with
 * /health on PORT.
 */
const config = loadConfigOrExit([
  ['natsUrl', 'COMANDA_NATS_URL', 'is required for the wallet bridge on its own (the API and the consumer share the bus)'],
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the wallet bridge on its own (payments are recorded in the shared event store)'],
  ['webhookSecret', 'COMANDA_WEBHOOK_SECRET', 'is required: the secret the Lightning node signs its webhooks with'],
  ['nodeUrl', 'COMANDA_NODE_URL', 'is required: the bridge reconciles with the node, which sends each webhook only once'],
]);

const running = await createRuntime(config, [walletBridge()]);
running.runtime.logger.child({ service: 'wallet-bridge' }).info({ address: running.url }, 'wallet-bridge listening (POST /webhooks/node)');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await running.close();
    process.exit(0);
  });
}
