import type { FastifyInstance } from 'fastify';
import orderRoutes from './orders.js';
import orderQueryRoutes from './queries.js';
import orderDiscountRoutes from './discounts.js';

/** Orders: placing one, its lifecycle, its discounts, and the queries the floor and the owner ask. */
export default async function orders(app: FastifyInstance) {
  await orderRoutes(app);
  await orderQueryRoutes(app);
  await orderDiscountRoutes(app);
}
