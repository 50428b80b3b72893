import type { FastifyInstance } from 'fastify';
import printJobRoutes from './jobs.js';
import printerRoutes from './printers.js';
import billPrintRoutes from './bills.js';
import stationPaperRoutes from './station-paper.js';

/** Paper (issue 61): the printers, their queue, test pages, bills and receipts on the till's printer, a station's paper for its screen. */
export default async function printing(app: FastifyInstance) {
  await printJobRoutes(app);
  await printerRoutes(app);
  await billPrintRoutes(app);
  await stationPaperRoutes(app);
}
