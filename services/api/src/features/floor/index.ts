import type { FastifyInstance } from 'fastify';
import spaceRoutes from './spaces.js';
import tableRoutes from './tables.js';

/** Tables and seating: the floor's spaces and tables, and which order holds each table. */
export default async function floor(app: FastifyInstance) {
  await spaceRoutes(app);
  await tableRoutes(app);
}
