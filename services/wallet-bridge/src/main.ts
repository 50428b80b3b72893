import { openBus } from '@comanda/bus';
import { loadConfigOrExit } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import Fastify from 'fastify';
import pino from 'pino';
import { startPaymentConsumer } from './payment-consumer.js';
import { webhookReceiver } from './webhook-receiver.js';

/** The wallet bridge on its own (distributed shape): webhook receiver and payment consumer. */
const config = loadConfigOrExit([
  ['natsUrl', 'COMANDA_NATS_URL', 'is required for the wallet bridge on its own (the API and the consumer share the bus)'],
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the wallet bridge on its own (payments are recorded in the shared event store)'],
  ['webhookSecret', 'COMANDA_WEBHOOK_SECRET', 'is required: the secret the Lightning node signs its webhooks with'],
]);

const logger = pino({
  level: config.logLevel,
  redact: { paths: ['req.headers["x-node-signature"]', 'req.headers["x-phoenix-signature"]', 'req.headers.authorization'], censor: '[redacted]' },
});
const store = openEventStore(config);
const bus = await openBus(config);
const consumer = await startPaymentConsumer(bus, new CommandHandler(store), logger);
const app = Fastify({ loggerInstance: logger.child({ service: 'wallet-bridge' }) });
app.get('/health', async () => {
  await bus.ping();
  await store.ping();
  return { status: 'up' };
});
await app.register(webhookReceiver, { bus, webhookSecret: config.webhookSecret! });
const address = await app.listen({ host: config.host, port: config.port });
console.log(`wallet-bridge listening on ${address} (POST /webhooks/node)`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await app.close();
    await consumer.close();
    await Promise.all([bus.close(), store.close()]);
    process.exit(0);
  });
}
