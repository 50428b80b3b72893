import { isCalendarDate, notFound, validationFailed } from '@comanda/domain';
import { reportNames } from '@comanda/analytics';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { commonErrors } from '../../http/schemas.js';

export const Day = Type.String({ description: 'YYYY-MM-DD, a day in the restaurant time zone (COMANDA_TIMEZONE), inclusive' });
const Cell = Type.Union([Type.String(), Type.Number(), Type.Null()]);

const ReportSchema = Type.Object({
  report: Type.String(),
  version: Type.Integer({ description: 'changes whenever what the report computes changes' }),
  title: Type.String(),
  time_zone: Type.String(),
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.Union([Type.String(), Type.Null()]),
  position: Type.Union([Type.String(), Type.Null()], { description: 'the log position the report includes' }),
  sections: Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Cell)), { description: 'named tables of rows; money in the base currency' }),
}, { description: 'The same JSON as `npm run analytics -- --report NAME --format json`' });

/** A day query parameter, checked (400 naming the field). */
export const day = (value: string | undefined, field: string): string | undefined => {
  if (value !== undefined && !isCalendarDate(value)) throw validationFailed([{ field, message: 'must be a date YYYY-MM-DD' }]);
  return value;
};

/** The from/to of a query of days, checked: each a date, from not after to (400 naming the field). */
export function days(query: { from?: string | undefined; to?: string | undefined }): { from: string | undefined; to: string | undefined } {
  const from = day(query.from, 'from');
  const to = day(query.to, 'to');
  if (from !== undefined && to !== undefined && from > to) throw validationFailed([{ field: 'from', message: 'must not be after to' }]);
  return { from, to };
}

/** The owner's reports, live: read from the in-memory report projections (packages/analytics). */
export default async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/reports/:name', {
    config: { permission: 'reports:read' },
    schema: {
      tags: ['reports'],
      summary: 'One of the owner\'s reports for a range of days',
      description: `name: ${reportNames().join(', ')}. Days follow COMANDA_TIMEZONE; without from/to, every day in the log.`,
      params: Type.Object({ name: Type.Enum(reportNames()) }),
      querystring: Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day) }),
      response: {
        200: ReportSchema,
        ...commonErrors,
        404: Type.Literal('Resource not found', { description: 'Bare JSON string: the report is not kept by this process' }),
        503: Type.Ref('Message', { description: 'The reports are still being built from the log, or this one is being rebuilt in a new version (try again shortly); or they are stopped, or not served by this process' }),
      },
    },
  }, async (request, reply) => {
    const { from, to } = days(request.query);
    const reports = app.deps.reports;
    if (!reports || reports.state !== 'live') {
      return reply.code(503).send({ message: reports?.state === 'starting' ? 'Reports are being built from the event log; try again shortly' : 'Reports are not available' });
    }
    const report = reports.get(request.params.name);
    if (!report && reports.isRebuilding(request.params.name)) {
      return reply.code(503).send({ message: 'This report is being rebuilt from the event log (a new version); try again shortly' });
    }
    if (!report) throw notFound();
    return reply.send(report.result({ ...(from ? { from } : {}), ...(to ? { to } : {}) }));
  });
}
