import type { FastifyInstance } from 'fastify';
import printJobRoutes from './jobs.js';
import printerRoutes from './printers.js';

/** Paper (issue 61): the printers, their queue, test pages. */
export default async function printing(app: FastifyInstance) {
  await printJobRoutes(app);
  await printerRoutes(app);
}
