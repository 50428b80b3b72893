import { type AttemptCounter, openAttemptCounter } from '@comanda/attempts';
import { type Bus, openBus } from '@comanda/bus';
import { type Config, persistentSecret } from '@comanda/config';
import { CommandHandler, type EventStore, type Position, openEventStore } from '@comanda/event-store';
import { NodeClient } from '@comanda/lightning';
import { Metrics, commandObserver, instrumentBus, instrumentStore } from '@comanda/metrics';
import { type ReadStore, openReadStore } from '@comanda/read-store';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { join } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { type CheckpointStore, FileCheckpoint, coalescedReadStoreCheckpoint } from './checkpoints.js';
import { type HealthCheck, healthRoutes } from './health.js';
import { processLogDestination, secretSafeLogging } from './logging.js';
import { LocalProgress } from './progress.js';

/** The restaurant's Lightning node: how to reach it, and a client for it. */
export interface LightningNode {
  access: { url: string; password: string };
  client: NodeClient;
}

/** A part that follows the log: its state is a health check, its position a lag on /metrics. */
export interface Follower {
  state: string;
  position: Position | null | (() => Position | null);
}

/** What every part is built from: the adapters chosen by configuration, and the process's registries. */
export interface Runtime {
  readonly config: Config;
  readonly logger: Logger;
  /** Start-up announcements (URL, first admin): printed whatever LOG_LEVEL says, unless silent. */
  readonly announcements: Logger;
  readonly logStream?: DestinationStream;
  readonly store: EventStore;
  readonly readStore: ReadStore;
  /** Login attempt counters: beside the read models (same database or data dir), not in them. */
  readonly attempts: AttemptCounter;
  readonly bus: Bus;
  readonly commands: CommandHandler;
  readonly metrics: Metrics;
  /** The configured node (COMANDA_NODE_URL), or one a part provides (the standalone's simulator). */
  node?: LightningNode;
  /** Read-your-writes in this process: set by the projections part when it runs here. */
  readModels?: { waitFor(position: Position, timeoutMs: number): Promise<boolean> };
  /**
   * How far the followers running in this process have come (the projector, the reactor's
   * reactions), for the read-your-writes of an API beside them: the names of the shared read
   * store's checkpoints, kept in memory.
   */
  readonly progress: LocalProgress;
  /** Every check /health runs: the adapters', then each part's. */
  readonly health: HealthCheck[];
  /**
   * A checkpoint by name: in the shared read store when there is one, else a file in the data dir;
   * written at most every 200 ms (a follower whose consumers absorb a replay: relays, reactions, the
   * reconciler), and at stop.
   */
  checkpoint(name: string): CheckpointStore;
  /** A secret from configuration, else generated once and kept in the data dir. */
  secret(name: string, configured: string | null): string;
  /**
   * Registers a log follower: health check, lag metric, and (crash-only processes) the watchdog.
   * An `optional` one is shown on /health without holding readiness (a relay waiting for the bus).
   */
  follow(name: string, follower: Follower, options?: { optional?: boolean }): void;
  /** Adds routes to the process's HTTP server (the API's app, or a bare one with /health). */
  serve<O extends object>(plugin: FastifyPluginAsync<O>, options: O): void;
  /** The API part hands over its app: the process serves it, with every plugin added by `serve`. */
  useApp(app: FastifyInstance): void;
}

/** What a started part leaves running. */
export interface RunningPart {
  /** After the HTTP server listens (the simulated node learns where to send webhooks). */
  listening?(url: string, port: number): Promise<void> | void;
  stop?(): Promise<void>;
}

/** One piece of Comanda a process may run; a main is the list of parts it chooses. */
export interface Part {
  name: string;
  /** The part talks to the Lightning node: the process's health then includes the node's. */
  usesNode?: boolean;
  /** Before any store is opened (the standalone's data dir lock); returns its release. */
  prepare?(config: Config): (() => void) | void;
  start(runtime: Runtime): Promise<RunningPart | void>;
}

export interface RuntimeOptions {
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Serve HTTP (the API, /health, webhooks) on HOST:PORT. Default true. */
  listen?: boolean;
  /**
   * Crash-only process (the projector): when a follower fails, log it and exit 1, and let the
   * supervisor start the process again from the durable checkpoints.
   */
  exitWhenFailed?: boolean;
}

export interface RunningRuntime {
  runtime: Runtime;
  /** The HTTP server, when the process listens. */
  app?: FastifyInstance;
  url?: string;
  close(): Promise<void>;
}

/**
 * The one composition root. Opens the adapters configuration names (event store, read store, attempt
 * counter, bus, Lightning node), builds the command handler and the metrics registry, then starts the parts in
 * the order given, serves HTTP, and stops everything in reverse order. Every process (standalone,
 * api, projector, wallet bridge) is this function with a different list of parts.
 */
export async function createRuntime(config: Config, parts: Part[], given: RuntimeOptions = {}): Promise<RunningRuntime> {
  // Every logger of the process writes to one destination (standard output), so lines never interleave.
  const options: RuntimeOptions = { ...given, logStream: given.logStream ?? processLogDestination() };
  const logger = pino({ level: config.logLevel, ...secretSafeLogging }, options.logStream);
  const announcements = pino({ level: config.logLevel === 'silent' ? 'silent' : 'info', ...secretSafeLogging }, options.logStream);
  const releases: Array<() => void> = [];
  for (const part of parts) {
    const release = part.prepare?.(config);
    if (release) releases.push(release);
  }
  const cleanups: Array<() => Promise<void>> = [async () => releases.reverse().forEach((release) => release())];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'error while stopping'));
    }
  };
  try {
    return await start(config, parts, options, logger, announcements, cleanups, closeAll);
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function start(
  config: Config, parts: Part[], options: RuntimeOptions, logger: Logger, announcements: Logger,
  cleanups: Array<() => Promise<void>>, closeAll: () => Promise<void>,
): Promise<RunningRuntime> {
  // A store briefly away (restart, failover) is logged; its pool reconnects on the next query.
  const storeError = (error: unknown) => logger.warn({ error: (error as Error).message }, 'store connection');
  const metrics = new Metrics();
  const store = instrumentStore(await openEventStore(config, storeError), metrics);
  cleanups.push(() => store.close());
  const readStore = await openReadStore(config, storeError);
  cleanups.push(() => readStore.close());
  const attempts = await openAttemptCounter(config, storeError);
  cleanups.push(() => attempts.close());
  const bus = instrumentBus(await openBus(config), metrics);
  cleanups.push(() => bus.close());
  const progress = new LocalProgress();
  cleanups.push(async () => progress.close());
  const followers = new Map<string, Follower>();
  const plugins: Array<[FastifyPluginAsync<never>, object]> = [];
  let app: FastifyInstance | undefined;
  const runtime: Runtime = {
    config, logger, announcements, store, readStore, attempts, bus, metrics, progress,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    commands: new CommandHandler(store, undefined, commandObserver(metrics)),
    ...(config.nodeUrl ? { node: lightningNode({ url: config.nodeUrl, password: config.nodePassword ?? '' }) } : {}),
    health: [
      { name: 'eventStore', check: async () => (await store.ping(), 'up') },
      { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
      // Shown, not waited for: writes and reads go on without the bus (it carries the live screens'
      // updates and the relay's messages); a part that cannot work without it (the wallet bridge,
      // which answers webhooks once JetStream holds them) says so in a check of its own.
      { name: 'bus', check: async () => (await bus.ping(), 'up'), optional: true },
    ],
    // Checkpoints of things with effects outside the read models must outlive an in-memory read store.
    checkpoint: (name) =>
      config.readStoreUrl || config.mongoUrl ? coalescedReadStoreCheckpoint(readStore, name) : new FileCheckpoint(join(config.dataDir, `${name}.checkpoint`)),
    secret: (name, configured) => persistentSecret(config.dataDir, name, configured),
    follow(name, follower, followOptions = {}) {
      followers.set(name, follower);
      this.health.push({ name, check: async () => follower.state, ...(followOptions.optional ? { optional: true } : {}) });
      metrics.watchFollower(name, () => (typeof follower.position === 'function' ? follower.position() : follower.position));
    },
    serve: (plugin, pluginOptions) => void plugins.push([plugin as FastifyPluginAsync<never>, pluginOptions]),
    useApp: (built) => void (app = built),
  };

  const running: RunningPart[] = [];
  for (const part of parts) {
    const started = await part.start(runtime);
    if (started) {
      running.push(started);
      if (started.stop) cleanups.push(started.stop);
    }
  }
  // Whichever part uses the node (API, wallet bridge), the process is ready only while it answers.
  const node = runtime.node;
  if (node && parts.some((p) => p.usesNode)) runtime.health.push({ name: 'lightningNode', check: async () => (await node.client.getInfo(), 'up') });
  if (options.exitWhenFailed) {
    const watchdog = setInterval(() => {
      const failed = [...followers].find(([, f]) => f.state === 'failed');
      if (!failed) return;
      logger.fatal({ part: failed[0] }, `${failed[0]} stopped; exiting so the supervisor restarts the process`);
      process.exit(1);
    }, 500);
    watchdog.unref();
    cleanups.push(async () => clearInterval(watchdog));
  }

  let url: string | undefined;
  if (options.listen ?? true) {
    const server: FastifyInstance = app ?? bareServer(logger, runtime.health);
    app = server;
    // Not awaited one by one: a Fastify instance is thenable, and listen() loads every plugin.
    for (const [plugin, pluginOptions] of plugins) void server.register(plugin, pluginOptions as never);
    // Stopped first: requests in flight finish before the parts they use stop.
    cleanups.push(() => server.close());
    url = await server.listen({ host: config.host, port: config.port });
    const { port } = server.server.address() as { port: number };
    for (const part of running) await part.listening?.(url, port);
  } else if (app) {
    cleanups.push(() => app!.close());
  }
  let closing: Promise<void> | undefined;
  return { runtime, ...(app ? { app } : {}), ...(url ? { url } : {}), close: () => (closing ??= closeAll()) };
}

export const lightningNode = (access: { url: string; password: string }): LightningNode => ({ access, client: new NodeClient(access) });

/**
 * The HTTP server of a process that runs no API: /health for its supervisor, and what parts serve.
 * Not async: returning a (thenable) Fastify instance from an async function would boot it early.
 */
function bareServer(logger: Logger, checks: HealthCheck[]): FastifyInstance {
  // Typed as Fastify's logger, so the instance is the FastifyInstance every part is written against.
  const loggerInstance: FastifyBaseLogger = logger;
  const server = Fastify({ loggerInstance });
  void server.register(healthRoutes, { checks });
  return server;
}
