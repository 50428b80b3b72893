import { ALL_REPORTS, LiveReports } from '@comanda/analytics';
import { bootstrapFirstAdmin, buildApp, firstAdminAnnouncer, secretSafeLogging, type HealthCheck } from '@comanda/api';
import { openBus } from '@comanda/bus';
import { type Config, persistentSecret } from '@comanda/config';
import { CommandHandler, type EventStore, openEventStore } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { openReadStore } from '@comanda/read-store';
import { FileCheckpoint, Projector, Reactor, Relay, kitchenPublications, kitchenReactions, readStoreCheckpoint, recentOnFirstRun, tableOccupancy } from '@comanda/projector';
import { NodeClient } from '@comanda/lightning';
import { DEFAULT_NODES, startNetwork, type SimNetwork } from '@comanda/node-sim';
import { paymentIntake, recordAndAnnounce, startPaymentConsumer, startPaymentWatch, webhookReceiver } from '@comanda/wallet-bridge';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import pino, { type Logger } from 'pino';
import { Operations } from './operations.js';

/**
 * A checkpoint beyond the log's last position means the log lost its tail (restored from an older
 * backup, a file swapped): the part would silently skip the events appended next. Said once, loudly.
 */
async function warnIfAheadOfLog(store: EventStore, logger: Logger, checkpoints: Array<[string, { get(): Promise<bigint | null> }]>) {
  const head = (await store.headPosition()) ?? 0n;
  for (const [name, checkpoint] of checkpoints) {
    const at = await checkpoint.get();
    if (at !== null && at > head) {
      logger.warn({ checkpoint: name, position: String(at), head: String(head) },
        `The ${name} checkpoint (${at}) is ahead of the event log's head (${head}): the log has lost events it once had (restored from an older backup?). The ${name} will not see new events until the log passes ${at}; restore the newer log, or remove the ${name} checkpoint to start it again.`);
    }
  }
}

export interface RunningComanda {
  app: FastifyInstance;
  url: string;
  /** Structured start-up announcements (printed whatever LOG_LEVEL says). */
  announcements: pino.Logger;
  /** The built-in simulated network, when no COMANDA_NODE_URL is configured. */
  network?: SimNetwork;
  close(): Promise<void>;
}

/**
 * One process with every part: api, projector, relay. The adapters come from configuration only:
 * embedded (SQLite, memory, in-process) by default, EventStoreDB / MongoDB / NATS when their URLs are set.
 */
export async function startComanda(config: Config, options: { logStream?: DestinationStream } = {}): Promise<RunningComanda> {
  const logger = pino({ level: config.logLevel, ...secretSafeLogging }, options.logStream);
  // Start-up announcements (URL, first admin) print whatever LOG_LEVEL says, as structured lines too.
  const announcements = pino({ level: config.logLevel === 'silent' ? 'silent' : 'info', ...secretSafeLogging }, options.logStream);
  const ops = new Operations(config, logger);
  const masterKey = persistentSecret(config.dataDir, 'master-key', config.masterKey);
  const store = ops.store(openEventStore(config));
  const readStore = await openReadStore(config);
  const bus = ops.bus(await openBus(config));
  const projector = new Projector({ store, readStore, projections: allProjections, logger });
  // The owner's reports (packages/analytics): in-memory folds of the log from position 0, built
  // beside the read models, complete before the API listens.
  const reports = new LiveReports(store, ALL_REPORTS, config.timezone, logger.child({ part: 'reports' }));
  const reportsBuilt = reports.start();
  // The read models catch up (from their checkpoint in read-models.db, or from 0 in memory): the API listens only once they are complete.
  await projector.start();
  await reportsBuilt;
  // Checkpoints of things with effects outside the read models must outlive an in-memory read store.
  const checkpoint = (name: string) =>
    config.readStoreUrl ? readStoreCheckpoint(readStore, name) : new FileCheckpoint(join(config.dataDir, `${name}.checkpoint`));
  await warnIfAheadOfLog(store, logger, [
    ['relay', checkpoint('relay')],
    ['reactor', checkpoint('reactor')],
    ['projector', { get: () => readStore.getCheckpoint('projector') }],
  ]);
  const relay = new Relay(store, bus, checkpoint('relay'), logger, 'head');
  await relay.start();
  // Kitchen screens get every kitchen event ever written (from the start of the log on a first run).
  const kitchenRelay = new Relay(store, bus, checkpoint('kitchen-relay'), logger, 'start', kitchenPublications(store));
  await kitchenRelay.start();
  const commands = new CommandHandler(store, undefined, ops.commandObserver);
  // A restored data dir (no reactor checkpoint) reacts to the last 10,000 events, not to all history.
  const reactor = new Reactor(store, config.eventStoreUrl ? checkpoint('reactor') : recentOnFirstRun(checkpoint('reactor'), store), [tableOccupancy(commands), ...kitchenReactions(commands)], logger);
  await reactor.start();
  ops.follow({ projector, relay, processManagers: reactor });
  ops.startBackups(store);

  const health: HealthCheck[] = [
    { name: 'eventStore', check: async () => (await store.ping(), 'up') },
    { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
    { name: 'bus', check: async () => (await bus.ping(), 'up') },
    { name: 'projector', check: async () => projector.state },
    { name: 'relay', check: async () => relay.state },
    { name: 'kitchenRelay', check: async () => kitchenRelay.state },
    { name: 'processManagers', check: async () => reactor.state },
    { name: 'reports', check: async () => reports.state },
  ];
  // The restaurant's Lightning node: the configured one, or the built-in simulator (restaurant and
  // customer nodes) whose restaurant node signs its webhooks with our secret.
  const webhookSecret = persistentSecret(config.dataDir, 'webhook-secret', config.webhookSecret);
  let network: SimNetwork | undefined;
  let nodeAccess: { url: string; password: string };
  if (config.nodeUrl) {
    nodeAccess = { url: config.nodeUrl, password: config.nodePassword ?? '' };
  } else {
    network = await startNetwork({
      dataDir: join(config.dataDir, 'node-sim'),
      logger: logger.child({ service: 'node-sim' }),
      nodes: DEFAULT_NODES.map((n) => ({ ...n, host: '127.0.0.1', port: 0, ...(n.name === 'restaurant' ? { webhookSecret } : {}) })),
    });
    const restaurantNode = network.node('restaurant');
    nodeAccess = { url: restaurantNode.url, password: restaurantNode.password };
  }
  const node = new NodeClient(nodeAccess);
  const bridgeLogger = logger.child({ service: 'wallet-bridge' });
  // A durable bus (JetStream) carries webhooks to the consumer; an in-process one is bypassed: the
  // webhook writes the payment to the log itself before answering (payment-intake.ts).
  const payments = bus.durable ? await startPaymentConsumer(bus, commands, bridgeLogger) : undefined;
  const intake = paymentIntake(bus, commands, bridgeLogger);
  const watch = startPaymentWatch({
    node: nodeAccess,
    record: ops.reconciled(recordAndAnnounce(commands, bus, bridgeLogger)),
    checkpoint: checkpoint('reconciler'),
    everyMs: config.reconcileEveryS * 1000,
    logger: bridgeLogger,
  });
  health.push(
    { name: 'lightningNode', check: async () => (await node.getInfo(), 'up') },
    { name: 'walletBridge', check: async () => (await bus.ping(), 'up') },
  );

  await bootstrapFirstAdmin(commands, masterKey, config, firstAdminAnnouncer(announcements, config.dataDir));
  const app = await buildApp({ config, store, readStore, bus, commands, gate: projector, health, masterKey, node, metrics: ops.metrics, reports }, { logStream: options.logStream });
  await app.register(webhookReceiver, { intake, webhookSecret });
  const address = await app.listen({ host: config.host, port: config.port });
  if (network) {
    // In process, so loopback reaches us whatever address we listen on.
    network.node('restaurant').addWebhook(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/webhooks/node`);
    const customer = network.node('customer');
    announcements.info({ event: 'simulated-network', customerUrl: customer.url }, `Simulated Lightning network: a customer wallet at ${customer.url} (Basic auth, empty user, password ${customer.password}) can pay invoices by hand: POST /payinvoice invoice=<serialized>`);
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    url: address,
    announcements,
    ...(network ? { network } : {}),
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await watch.close();
        await payments?.close();
        await network?.close();
        await reactor.stop();
        await relay.stop();
        await kitchenRelay.stop();
        await projector.stop();
        await reports.stop();
        await bus.close();
        await readStore.close();
        await ops.stopBackups();
        await store.close();
        ops.release();
      })()),
  };
}
