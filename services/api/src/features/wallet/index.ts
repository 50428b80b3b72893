import type { FastifyInstance } from 'fastify';
import walletRoutes from './wallet.js';
import walletPaymentRoutes from './payments.js';
import walletEventRoutes from './events.js';
import unmatchedPaymentRoutes from './unmatched.js';

/** The restaurant's Lightning wallet (admins, unlocked with its password), payments nobody claimed. */
export default async function wallet(app: FastifyInstance) {
  await walletRoutes(app);
  await walletPaymentRoutes(app);
  await walletEventRoutes(app);
  await unmatchedPaymentRoutes(app);
}
