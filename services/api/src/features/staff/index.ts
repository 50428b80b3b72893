import type { FastifyInstance } from 'fastify';
import sessionRoutes from './sessions.js';
import tokenRoutes from './tokens.js';
import userRoutes from './users.js';
import deviceSessionRoutes from './device-sessions.js';
import timeClockRoutes from './time-clock.js';
import timeClockHoursRoutes from './time-clock-hours.js';

/** Staff: signing in and out (cookies for browsers, tokens for other clients), the roster, the devices' sessions and the time clock. */
export default async function staff(app: FastifyInstance) {
  await sessionRoutes(app);
  await tokenRoutes(app);
  await userRoutes(app);
  await deviceSessionRoutes(app);
  await timeClockRoutes(app);
  await timeClockHoursRoutes(app);
}
