import type { FastifyInstance } from 'fastify';
import stationRoutes from './stations.js';
import kitchenTicketRoutes from './tickets.js';
import kitchenEventRoutes from './events.js';

/** The kitchen: stations, firing orders to them, the tickets on the kitchen screens and the events that keep them live. */
export default async function kitchen(app: FastifyInstance) {
  await stationRoutes(app);
  await kitchenTicketRoutes(app);
  await kitchenEventRoutes(app);
}
