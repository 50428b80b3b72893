import type { FastifyInstance } from 'fastify';
import generalRoutes from './general.js';
import currencyRoutes from './currencies.js';

/** Open to everyone: the greeting, the base currency, health checks; and the currencies with their rates. */
export default async function general(app: FastifyInstance) {
  await generalRoutes(app);
  await currencyRoutes(app);
}
