import { SHIFTS_STREAM, dayRange, fromCents, may, noOpenShift, notFound, shifts } from '@comanda/domain';
import { SHIFTS, type ShiftView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Amount, IdParams, commonErrors } from '../../http/schemas.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { closeShift, openShift, shiftReport } from '@comanda/workflows';
import { Strict, centsOf, jsonNumbers } from './money-input.js';
import { ShiftSchema, shiftResponse, zReportResponse } from './views.js';
import { Day, days } from '../reports/reports.js';

const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'A shift is already open, or `No open shift`' }) };

/** The till's shifts: open with a cash float, close with the counted cash → the Z report. */
export default async function shiftRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const views = app.deps.readStore.collection<ShiftView>(SHIFTS);
  const deps = { commands: app.deps.commands, readStore: app.deps.readStore, now: () => app.now() };

  app.post('/shifts/open', {
    config: { permission: 'shifts:manage' },
    preValidation: jsonNumbers('cash_float'),
    schema: {
      tags: ['shifts'], summary: 'Open a shift with the cash float in the drawer', description: 'One shift is open at a time (409 otherwise).',
      body: Strict({ cash_float: Amount() }), response: { 201: ShiftSchema, ...errors },
    },
  }, async (request, reply) => {
    const [cashFloatCents] = centsOf([['cash_float', request.body.cash_float, 0]]);
    const opened = await openShift(deps, newResourceId(request, 'shift'), cashFloatCents!, writeContext(request));
    await app.readYourWrite(opened.position, `/shifts/${opened.shift.shiftId}`);
    const s = opened.shift;
    return reply.code(201).header('location', `/shifts/${s.shiftId}`).send(shiftResponse({ id: s.shiftId, number: s.number, status: 'open', cash_float_cents: s.cashFloatCents, opened_at: s.openedAt, closed_at: null }, null));
  });

  app.get('/shifts/current', {
    config: { permission: 'shifts:read' },
    schema: {
      tags: ['shifts'], summary: 'The open shift with its figures so far (an X report)',
      description: "Who runs the till (managers, admins) gets the X report; everyone gets `taken_by_me`, what they took themselves. A waiter learns that a shift is open and their own takings, never the drawer's expected cash or the shift's totals (`report` is null).",
      response: { 200: ShiftSchema, ...errors, 404: Type.Ref('Message', { description: '`No open shift`' }) },
    },
  }, async (request, reply) => {
    const { state } = await app.deps.commands.state(shifts, SHIFTS_STREAM);
    if (!state.open) return reply.code(404).send({ message: noOpenShift().message });
    const s = state.open;
    const open = { ...state, open: s };
    const now = app.now();
    const staff = request.staff!;
    const report = may(staff.role, 'shifts:figures') ? zReportResponse(await shiftReport(deps, open, now, 0), false) : null;
    const mine = await shiftReport(deps, open, now, 0, { takenBy: staff.id });
    const takenByMe = { payments: mine.counted.paymentIds.length, sales: fromCents(mine.salesCents), tips: fromCents(mine.tipsCents), refunds: fromCents(mine.refundsCents) };
    return { ...shiftResponse({ id: s.shiftId, number: s.number, status: 'open', cash_float_cents: s.cashFloatCents, opened_at: s.openedAt, closed_at: null }, report), taken_by_me: takenByMe };
  });

  app.post('/shifts/close', {
    config: { permission: 'shifts:manage', readsBack: true },
    preValidation: jsonNumbers('counted_cash'),
    schema: {
      tags: ['shifts'], summary: 'Close the open shift with the counted cash: the Z report',
      description: 'Sales, tips by waiter, totals by method, refunds, open (unpaid) amounts, expected and counted cash and the difference, to the cent. Recorded in the shift: a printed report never changes.',
      body: Strict({ counted_cash: Amount() }), response: { 200: ShiftSchema, ...errors },
    },
  }, async (request) => {
    const [countedCashCents] = centsOf([['counted_cash', request.body.counted_cash, 0]]);
    const { closed, position } = await closeShift(deps, countedCashCents!, writeContext(request));
    await app.readBack(position, `/shifts/${closed.shiftId}`);
    const view = await views.get(closed.shiftId);
    if (!view) throw notFound();
    return shiftResponse(view, zReportResponse(closed.report));
  });

  app.get('/shifts', {
    config: { permission: 'shifts:read' },
    schema: {
      tags: ['shifts'], summary: 'The shifts opened on a range of days, oldest first; the closed ones with their Z reports (for who runs the till)',
      description: 'Days follow COMANDA_TIMEZONE; a shift is of the day it opened (a dinner past midnight stays on its evening). Without from/to, every shift. An open shift\'s figures are `GET /shifts/current`: here its report is null.',
      querystring: Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day) }),
      response: { 200: Type.Array(ShiftSchema), ...errors },
    },
  }, async (request) => {
    const { from, to } = days(request.query);
    const tz = app.deps.config.timezone;
    const opened = { ...(from ? { $gte: dayRange(from, tz).start } : {}), ...(to ? { $lt: dayRange(to, tz).end } : {}) };
    const listed = await views.find(from || to ? { opened_at: opened } : {}, { sort: { opened_at: 1 } });
    const figures = may(request.staff!.role, 'shifts:figures');
    return listed.map((v) => shiftResponse(v, v.report && figures ? zReportResponse(v.report) : null));
  });

  app.get('/shifts/:id', {
    config: { permission: 'shifts:read' },
    schema: { tags: ['shifts'], summary: "A shift; a closed one with its Z report (for who runs the till: managers, admins)", params: IdParams, response: { 200: ShiftSchema, ...errors } },
  }, async (request) => {
    const view = await views.get(request.params.id);
    if (!view) throw notFound();
    return shiftResponse(view, view.report && may(request.staff!.role, 'shifts:figures') ? zReportResponse(view.report) : null);
  });
}
