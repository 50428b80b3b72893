import { openRates, type ExchangeRates } from '@comanda/rates';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import lightningCheckoutRoutes from './lightning-checkout.js';
import lightningRefundRoutes from './lightning-refunds.js';

/**
 * Issue 13's routes share one ExchangeRates (one cache per process): the one the caller passed in
 * AppDeps, or the configured source (fixed rates are announced as a warning at start).
 */
export default async function lightningRoutes(app: FastifyInstance) {
  const rates: ExchangeRates = app.deps.rates ?? openRates(app.deps.config, (message) => app.log.warn(message));
  // In the API's one context, as every route module (app.ts).
  await app.register(fp(lightningCheckoutRoutes), { rates });
  await app.register(fp(lightningRefundRoutes), { rates });
}
