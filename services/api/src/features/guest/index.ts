import { type ExchangeRates, openRates } from '@comanda/rates';
import type { FastifyInstance } from 'fastify';
import guestRoutes from './guest-routes.js';
import guestLinkRoutes from './guest-link.js';
import { guestLinkKey } from './guest-url.js';
import tableRequestRoutes from './table-requests.js';
import guestRequestRoutes from './guest-requests.js';

/** The guest's phone as the terminal (issue 63): a bill's link and a table's, the public routes behind them, and the waiters' answers to what guests ask for. */
export default async function guest(app: FastifyInstance) {
  const rates: ExchangeRates = app.deps.rates ?? openRates(app.deps.config, (message) => app.log.warn(message));
  const key = guestLinkKey(app.deps.masterKey);
  await guestRoutes(app, { rates, key });
  await guestLinkRoutes(app, { key });
  await tableRequestRoutes(app, { key });
  await guestRequestRoutes(app, { key });
}
