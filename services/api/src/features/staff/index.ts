import type { FastifyInstance } from 'fastify';
import sessionRoutes from './sessions.js';
import tokenRoutes from './tokens.js';
import userRoutes from './users.js';
import deviceSessionRoutes from './device-sessions.js';

/** Staff: signing in and out (cookies for browsers, tokens for other clients), the roster and the devices' sessions. */
export default async function staff(app: FastifyInstance) {
  await sessionRoutes(app);
  await tokenRoutes(app);
  await userRoutes(app);
  await deviceSessionRoutes(app);
}
