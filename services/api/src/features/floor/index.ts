import type { FastifyInstance } from 'fastify';
import spaceRoutes from './spaces.js';
import tableRoutes from './tables.js';
import planRoutes from './plan.js';
import sectionRoutes from './sections.js';

/** Tables and seating: the floor's spaces and tables, their plan and sections, and which order holds each table. */
export default async function floor(app: FastifyInstance) {
  await spaceRoutes(app);
  await tableRoutes(app);
  await planRoutes(app);
  await sectionRoutes(app);
}
