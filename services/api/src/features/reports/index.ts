import type { FastifyInstance } from 'fastify';
import reportRoutes from './reports.js';
import auditRoutes from './audit.js';

/** The owner's reports folded from the whole log, and the audit trail of money moved by name. */
export default async function reports(app: FastifyInstance) {
  await reportRoutes(app);
  await auditRoutes(app);
}
