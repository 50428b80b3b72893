import type { FastifyInstance } from 'fastify';
import orderDishRoutes from './order-dishes.js';

/** The lines of an order: dishes added, changed, voided or removed (a manager's approval where money moves). */
export default async function orderLines(app: FastifyInstance) {
  await orderDishRoutes(app);
}
