import { AUDIT_KINDS, type Row, toCsv } from '@comanda/analytics';
import { validationFailed } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { commonErrors } from '../../http/schemas.js';
import { Day, day } from './reports.js';

const Cell = Type.Union([Type.String(), Type.Number(), Type.Null()]);
const Entry = Type.Record(Type.String(), Cell, {
  description: 'at, day, kind, staff_id, staff (who did it), approved_by_id, approved_by, reason, amount, before, after (a price override\'s prices), order_id, ticket_id, detail; money in the base currency',
});
const Query = Type.Object({
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  staff_id: Type.Optional(Type.String({ format: 'uuid', description: 'entries this member of staff did or approved' })),
  kind: Type.Optional(Type.Enum([...AUDIT_KINDS])),
  format: Type.Optional(Type.Enum(['json', 'csv'], { description: 'csv: the same rows as text/csv (also with Accept: text/csv)' })),
});


/**
 * The audit trail for managers: the `audit` report (packages/analytics/src/reports/audit.ts, also
 * `npm run analytics -- --report audit` and GET /reports/audit), filtered by staff member and kind.
 */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/audit', {
    config: { permission: 'audit:read' },
    schema: {
      tags: ['reports'], summary: 'The audit trail: every exception with who, who approved it, why, the amount and when',
      description: `Kinds: ${AUDIT_KINDS.join(', ')}. Oldest first. Days follow COMANDA_TIMEZONE; without from/to, every day in the log.`,
      querystring: Query,
      response: {
        200: Type.Object({ from: Type.Union([Type.String(), Type.Null()]), to: Type.Union([Type.String(), Type.Null()]), count: Type.Integer(), entries: Type.Array(Entry) }, { description: 'JSON, or text/csv' }),
        ...commonErrors,
        503: Type.Ref('Message', { description: 'The reports are still being built from the log, or not served by this process' }),
      },
    },
  }, async (request, reply) => {
    const { staff_id: staffId, kind, format } = request.query;
    const from = day(request.query.from, 'from');
    const to = day(request.query.to, 'to');
    if (from !== undefined && to !== undefined && from > to) throw validationFailed([{ field: 'from', message: 'must not be after to' }]);
    const report = app.deps.reports?.state === 'live' ? app.deps.reports.get('audit') : undefined;
    if (!report) return reply.code(503).send({ message: 'The audit trail is being built from the event log, or not served here; try again shortly' });
    const result = report.result({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
    const entries: Row[] = (result.sections.entries ?? []).filter((e) =>
      (staffId === undefined || e.staff_id === staffId || e.approved_by_id === staffId) && (kind === undefined || e.kind === kind));
    const csv = format === 'csv' || (format === undefined && /\btext\/csv\b/.test(request.headers.accept ?? ''));
    if (csv) return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit.csv"').send(toCsv([{ ...result, sections: { entries } }]));
    return { from: from ?? null, to: to ?? null, count: entries.length, entries };
  });
}
