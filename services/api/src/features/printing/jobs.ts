import { PRINT_JOB_KINDS } from '@comanda/domain';
import { PRINT_JOBS, type PrintJobView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_TIMESTAMP_MS, commonErrors } from '../../http/schemas.js';

const Time = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS, description });

const Job = Type.Object({
  id: Type.String({ format: 'uuid' }),
  printer_id: Type.String({ format: 'uuid' }),
  kind: Type.Enum([...PRINT_JOB_KINDS]),
  title: Type.String(),
  status: Type.Enum(['queued', 'printed']),
  queued_at: Time('ms since the epoch'),
  age_seconds: Type.Integer({ minimum: 0, maximum: MAX_TIMESTAMP_MS, description: 'How long it has waited (queued), or waited before printing (printed)' }),
  attempts: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Tries to reach the printer so far, the successful one included' }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  printed_at: Type.Union([Time('ms since the epoch'), Type.Null()]),
});
const Query = Type.Object({
  status: Type.Optional(Type.Enum(['queued', 'printed'], { description: 'queued (the default): what waits for a printer' })),
  printer_id: Type.Optional(Type.String({ format: 'uuid' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'the newest this many (printed) or the oldest (queued)' })),
});

/** The print queue: what waits for each printer, how long it has waited, how often it was tried and why it failed. */
export default async function printJobRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const jobs = app.deps.readStore.collection<PrintJobView>(PRINT_JOBS);

  app.get('/printers/jobs', {
    config: { permission: 'printers:queue' },
    schema: {
      tags: ['printing'], summary: 'The print queue', description: 'Queued jobs oldest first, in the order each printer will print them; `status=printed` lists the newest printed.',
      querystring: Query, response: { 200: Type.Array(Job), ...commonErrors },
    },
  }, async (request) => {
    const { status = 'queued', printer_id, limit = 100 } = request.query;
    const found = await jobs.find({ status, ...(printer_id ? { printer_id } : {}) }, { sort: { seq: status === 'queued' ? 1 : -1 }, limit });
    const now = Date.now();
    return found.map((j) => ({
      id: j.id, printer_id: j.printer_id, kind: j.kind, title: j.title, status: j.status, queued_at: j.queued_at,
      age_seconds: Math.max(0, Math.floor(((j.printed_at ?? now) - j.queued_at) / 1000)),
      attempts: j.attempts, last_error: j.last_error, printed_at: j.printed_at,
    }));
  });
}
