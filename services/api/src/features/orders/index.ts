import type { FastifyInstance } from 'fastify';
import orderRoutes from './orders.js';
import orderQueryRoutes from './queries.js';
import orderDiscountRoutes from './discounts.js';
import orderCloseRoutes from './close.js';

/** Orders: placing one, its lifecycle (closing a paid table too), its discounts, and the queries the floor and the owner ask. */
export default async function orders(app: FastifyInstance) {
  await orderRoutes(app);
  await orderQueryRoutes(app);
  await orderDiscountRoutes(app);
  await orderCloseRoutes(app);
}
