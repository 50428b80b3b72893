import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Metrics } from '@comanda/metrics';
import type { DestinationStream } from 'pino';
import type { AppDeps } from './deps.js';
import consistency from './plugins/consistency.js';
import errors from './plugins/errors.js';
import external from './plugins/external.js';
import security from './plugins/security.js';
import origins from './plugins/origins.js';
import jsonBodies from './plugins/json-bodies.js';
import openapi from './plugins/openapi.js';
import revalidation from './plugins/revalidation.js';
import { processLogDestination, secretSafeLogging } from './logging.js';
import { RequestLines } from './request-lines.js';
import { validatorCompiler } from './http/validation.js';
import { lazySerializers } from './http/lazy-serializers.js';
import auth, { requirePermission } from './plugins/auth.js';
import metricsPlugin from './plugins/metrics.js';
import general from './features/general/index.js';
import staff from './features/staff/index.js';
import orders from './features/orders/index.js';
import orderLines from './features/order-lines/index.js';
import floor from './features/floor/index.js';
import menu from './features/menu/index.js';
import bills from './features/bills/index.js';
import wallet from './features/wallet/index.js';
import kitchen from './features/kitchen/index.js';
import reports from './features/reports/index.js';
import printing from './features/printing/index.js';
import settings from './features/settings/index.js';
import guest from './features/guest/index.js';
import { redactGuestUrl } from './features/guest/guest-token.js';
import kitchenPage from './features/pages/kitchen-page.js';
import posPage from './features/pages/pos-page.js';
import guestPage from './features/pages/guest-page.js';

/** The API's features, each a folder of routes, schemas and views registered in its own context. */
const FEATURES = [general, staff, orders, orderLines, floor, menu, bills, wallet, kitchen, reports, printing, settings, guest];

export interface BuildOptions {
  /** Where logs go (tests capture them); defaults to the process's asynchronous stdout. */
  logStream?: DestinationStream;
}

/** Layers as in Fastify's demo: external plugins, then app plugins, then routes. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const stream = options.logStream ?? processLogDestination();
  const metrics = deps.metrics ?? new Metrics({ processMetrics: false });
  const proxies = deps.config.trustedProxies;
  const app = Fastify({
    logger: {
      level: deps.config.logLevel, ...secretSafeLogging, stream,
      // A guest link's token is a secret: the URL is logged with it censored.
      serializers: { req: (r: FastifyRequest) => ({ method: r.method, url: redactGuestUrl(r.url), host: r.host, remoteAddress: r.ip, remotePort: r.socket?.remotePort }) },
    },
    logController: new RequestLines(),
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // X-Forwarded-For is believed only from the proxies listed: otherwise any client could name its
    // own address and dodge (or aim) the login throttle.
    trustProxy: proxies.length > 0 ? proxies : false,
    // Slow clients cannot hold a connection: the whole request (headers and body) within the limit,
    // idle keep-alive connections closed after 5 s.
    requestTimeout: deps.config.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    http: { headersTimeout: Math.min(deps.config.requestTimeoutMs, 10_000), connectionsCheckingInterval: Math.min(1_000, deps.config.requestTimeoutMs) },
    // A URL the router cannot decode (`/users/%`) is bad input like any other, in the same shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_BAD_URL') {
        return reply.code(400).send({ message: 'Validation failed', errors: [{ field: 'url', message: 'is not a valid percent-encoded URL' }] });
      }
      return reply.code(400).send({ message: 'Validation failed', errors: [{ field: 'request', message: error.message }] });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  // First: each route added after it gets its answer tally (the OpenAPI UI's routes included).
  await app.register(metricsPlugin, { metrics, metricsToken: deps.config.metricsToken });
  await app.register(external);
  await app.register(security);
  await app.register(origins, { allowed: deps.config.allowedOrigins });
  await app.register(errors);
  await app.register(jsonBodies);
  await app.register(consistency, deps);
  await app.register(auth);
  await app.register(openapi);
  await app.register(revalidation, { readStore: deps.readStore, ...(deps.checkpoints ? { checkpoints: deps.checkpoints } : {}) });
  // The API: one parent context whose only hook authenticates, by the permission each route declares.
  await app.register(async function api(api) {
    api.addHook('onRoute', requirePermission);
    api.addHook('onRequest', api.authenticate);
    for (const feature of FEATURES) await api.register(feature);
  });
  await app.register(kitchenPage);
  await app.register(posPage);
  await app.register(guestPage);
  return app;
}
