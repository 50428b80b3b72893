import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { DestinationStream } from 'pino';
import type { AppDeps } from './deps.js';
import consistency from './plugins/consistency.js';
import errors from './plugins/errors.js';
import external from './plugins/external.js';
import auth from './plugins/auth.js';
import metrics from './plugins/metrics.js';
import authRoutes from './routes/auth.js';
import generalRoutes from './routes/general.js';
import userRoutes from './routes/users.js';
import orderRoutes from './routes/orders.js';
import orderDishRoutes from './routes/order-dishes.js';
import orderQueryRoutes from './routes/order-queries.js';
import categoryRoutes from './routes/categories.js';
import dishRoutes from './routes/dishes.js';
import spaceRoutes from './routes/spaces.js';
import tableRoutes from './routes/tables.js';
import walletRoutes from './routes/wallet.js';
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
import walletUnmatchedRoutes from './routes/wallet-unmatched.js';

/** Paths of every secret that could reach a log line. */
export const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-node-signature"]',
  'req.headers["x-phoenix-signature"]',
  'res.headers["set-cookie"]',
  '*.pin',
  '*.password',
  '*.secret',
  '*.webhookSecret',
  '*.accessToken',
  '*.refreshToken',
  '*.walletAccessToken',
];

export interface BuildOptions {
  /** Where logs go (tests capture them); defaults to stdout. */
  logStream?: DestinationStream;
}

/** Layers as in Fastify's demo: external plugins, then app plugins, then routes. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    ajv: { customOptions: { allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(external);
  await app.register(errors);
  await app.register(consistency, deps);
  await app.register(metrics, deps);
  await app.register(auth);
  await app.register(generalRoutes);
  await app.register(authRoutes);
  await app.register(userRoutes);
  await app.register(orderRoutes);
  await app.register(orderDishRoutes);
  await app.register(orderQueryRoutes);
  await app.register(categoryRoutes);
  await app.register(dishRoutes);
  await app.register(spaceRoutes);
  await app.register(tableRoutes);
  await app.register(walletRoutes);
  await app.register(walletEventRoutes);
  await app.register(ticketRoutes);
  await app.register(ticketPaymentRoutes);
  await app.register(receiptRoutes);
  await app.register(shiftRoutes);
  await app.register(currencyRoutes);
  await app.register(stationRoutes);
  await app.register(kitchenRoutes);
  await app.register(kitchenEventRoutes);
  await app.register(kitchenPage);
  await app.register(walletUnmatchedRoutes);
  return app;
}
