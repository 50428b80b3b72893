import type { FastifyInstance } from 'fastify';
import settingsRoutes from './settings.js';

/** The restaurant's settings a manager changes from the back office (issue 60). */
export default async function settings(app: FastifyInstance) {
  await settingsRoutes(app);
}
