import fp from 'fastify-plugin';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
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
import readOnlyFields from './plugins/read-only-fields.js';
import openapi from './plugins/openapi.js';
import revalidation from './plugins/revalidation.js';
import { processLogDestination, secretSafeLogging } from './logging.js';
import { RequestLines } from './request-lines.js';
import { requestLoggers } from './request-logger.js';
import { validatorCompiler } from './http/validation.js';
import { lazySerializers } from './http/lazy-serializers.js';
import auth from './plugins/auth.js';
import metricsPlugin from './plugins/metrics.js';
import authRoutes from './routes/auth.js';
import authTokenRoutes from './routes/auth-tokens.js';
import generalRoutes from './routes/general.js';
import userRoutes from './routes/users.js';
import orderRoutes from './routes/orders.js';
import orderDishRoutes from './routes/order-dishes.js';
import orderDiscountRoutes from './routes/order-discounts.js';
import orderQueryRoutes from './routes/order-queries.js';
import categoryRoutes from './routes/categories.js';
import dishRoutes from './routes/dishes.js';
import modifierGroupRoutes from './routes/modifier-groups.js';
import taxRateRoutes from './routes/tax-rates.js';
import spaceRoutes from './routes/spaces.js';
import tableRoutes from './routes/tables.js';
import walletRoutes from './routes/wallet.js';
import walletPaymentRoutes from './routes/wallet-payments.js';
import walletEventRoutes from './routes/wallet-events.js';
import ticketRoutes from './routes/tickets.js';
import ticketPaymentRoutes from './routes/ticket-payments.js';
import receiptRoutes from './routes/receipts.js';
import shiftRoutes from './routes/shifts.js';
import currencyRoutes from './routes/currencies.js';
import stationRoutes from './routes/stations.js';
import kitchenRoutes from './routes/kitchen.js';
import kitchenEventRoutes from './routes/kitchen-events.js';
import kitchenPage from './routes/kitchen-page.js';
import posPage from './routes/pos-page.js';
import walletUnmatchedRoutes from './routes/wallet-unmatched.js';
import lightningRoutes from './routes/lightning.js';
import reportRoutes from './routes/reports.js';
import auditRoutes from './routes/audit.js';

/** Every module of the API's routes (the pages apart). */
const API_ROUTES = [
  generalRoutes,
  authRoutes,
  authTokenRoutes,
  userRoutes,
  orderRoutes,
  orderDishRoutes,
  orderDiscountRoutes,
  orderQueryRoutes,
  categoryRoutes,
  dishRoutes,
  modifierGroupRoutes,
  taxRateRoutes,
  spaceRoutes,
  tableRoutes,
  walletRoutes,
  walletPaymentRoutes,
  walletEventRoutes,
  ticketRoutes,
  ticketPaymentRoutes,
  receiptRoutes,
  shiftRoutes,
  currencyRoutes,
  stationRoutes,
  kitchenRoutes,
  kitchenEventRoutes,
  walletUnmatchedRoutes,
  lightningRoutes,
  reportRoutes,
  auditRoutes,
];

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
    logger: { level: deps.config.logLevel, ...secretSafeLogging, stream },
    logController: new RequestLines(),
    childLoggerFactory: requestLoggers,
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
  await app.register(readOnlyFields);
  await app.register(consistency, deps);
  await app.register(auth);
  await app.register(openapi);
  await app.register(revalidation, { readStore: deps.readStore, ...(deps.checkpoints ? { checkpoints: deps.checkpoints } : {}) });
  // The API's routes share the root's context (fastify-plugin), so every request and reply is of one
  // class: Fastify makes a Request and a Reply class per encapsulated context, and the hooks every
  // request passes (authorisation, revalidation, the tally, the request line) would otherwise meet a
  // class per route module and run generic code for all of them (docs/benchmarks.md). The pages stay
  // encapsulated: each registers its own @fastify/static.
  for (const routes of API_ROUTES) await app.register(fp(routes));
  await app.register(kitchenPage);
  await app.register(posPage);
  return app;
}
