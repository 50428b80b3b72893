import type { FastifyInstance } from 'fastify';
import orderDishRoutes from './order-dishes.js';
import moveRoutes from './moves.js';

/** The lines of an order: dishes added, changed, voided, removed or moved to another order (a manager's approval where money moves). */
export default async function orderLines(app: FastifyInstance) {
  await orderDishRoutes(app);
  await moveRoutes(app);
}
