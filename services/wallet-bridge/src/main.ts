import { openBus } from '@comanda/bus';
import { loadConfigOrExit } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { FileCheckpoint } from '@comanda/projector';
import Fastify from 'fastify';
import { join } from 'node:path';
import pino from 'pino';
import { startPaymentConsumer } from './payment-consumer.js';
import { paymentIntake, recordAndAnnounce } from './payment-intake.js';
import { startPaymentWatch } from './payment-watch.js';
import { webhookReceiver } from './webhook-receiver.js';

/**
 * The wallet bridge on its own (distributed shape): the webhook receiver (200 once JetStream has
 * acknowledged the payment), the durable payment consumer, and reconciliation with the node (its
 * checkpoint is a file in COMANDA_DATA_DIR: losing it only makes the next pass read further back).
 */
const config = loadConfigOrExit([
  ['natsUrl', 'COMANDA_NATS_URL', 'is required for the wallet bridge on its own (the API and the consumer share the bus)'],
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the wallet bridge on its own (payments are recorded in the shared event store)'],
  ['webhookSecret', 'COMANDA_WEBHOOK_SECRET', 'is required: the secret the Lightning node signs its webhooks with'],
  ['nodeUrl', 'COMANDA_NODE_URL', 'is required: the bridge reconciles with the node, which sends each webhook only once'],
]);

const logger = pino({
  level: config.logLevel,
  redact: { paths: ['req.headers["x-node-signature"]', 'req.headers["x-phoenix-signature"]', 'req.headers.authorization'], censor: '[redacted]' },
}).child({ service: 'wallet-bridge' });
const store = openEventStore(config);
const bus = await openBus(config);
const commands = new CommandHandler(store);
const consumer = await startPaymentConsumer(bus, commands, logger);
const watch = startPaymentWatch({
  node: { url: config.nodeUrl!, password: config.nodePassword ?? '' },
  record: recordAndAnnounce(commands, bus, logger),
  checkpoint: new FileCheckpoint(join(config.dataDir, 'reconciler.checkpoint')),
  everyMs: config.reconcileEveryS * 1000,
  logger,
});
const app = Fastify({ loggerInstance: logger });
app.get('/health', async (_request, reply) => {
  await bus.ping();
  await store.ping();
  const { passes, failedPasses, recovered, lastPassAt, lastError } = watch.reconciler.stats;
  const reconciliation = { passes, failedPasses, recovered, lastPassAt, lastError, websocket: watch.websocketConnected() ? 'up' : 'down' };
  // The node being unreachable is not fatal (webhooks still land), but it must show.
  if (lastError) reply.code(503);
  return { status: lastError ? 'degraded' : 'up', reconciliation };
});
await app.register(webhookReceiver, { intake: paymentIntake(bus, commands, logger), webhookSecret: config.webhookSecret! });
const address = await app.listen({ host: config.host, port: config.port });
logger.info({ address }, 'wallet-bridge listening (POST /webhooks/node)');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await app.close();
    await watch.close();
    await consumer.close();
    await Promise.all([bus.close(), store.close()]);
    process.exit(0);
  });
}
