import { type ExchangeRates, openRates } from '@comanda/rates';
import type { FastifyInstance } from 'fastify';
import ticketRoutes from './tickets.js';
import paymentRoutes from './payments.js';
import receiptRoutes from './receipts.js';
import shiftRoutes from './shifts.js';
import lightningCheckoutRoutes from './lightning-checkout.js';
import lightningRefundRoutes from './lightning-refunds.js';
import openBillRoutes from './open-bills.js';

/** Bills: tickets issued for an order, payments (cash, card, Lightning), voids, refunds, receipts, the cashier's shift. */
export default async function bills(app: FastifyInstance) {
  // One ExchangeRates (one cache) for checkout and refunds: the one AppDeps passed, or the configured
  // source (fixed rates are announced as a warning at start).
  const rates: ExchangeRates = app.deps.rates ?? openRates(app.deps.config, (message) => app.log.warn(message));
  await ticketRoutes(app);
  await openBillRoutes(app);
  await paymentRoutes(app);
  await receiptRoutes(app);
  await shiftRoutes(app);
  await lightningCheckoutRoutes(app, { rates });
  await lightningRefundRoutes(app, { rates });
}
