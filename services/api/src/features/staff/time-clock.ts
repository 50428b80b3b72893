import { createHash } from 'node:crypto';
import { newId, notFound, timeClock, timeClockStream } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import { TIME_SHIFTS, type TimeShiftView } from '@comanda/read-models';
import { correctShift } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { staffSessions } from '../../auth/sessions.js';
import { Headers, IdParams, commonErrors, withHeaders } from '../../http/schemas.js';
import { idempotencyKey, newResourceId, writeContext } from '../../http/write-context.js';
import { Conflict } from '../../http/resources.js';
import { LoginBody, TooMany, tooManyAttempts } from './sessions.js';

const ACTIONS = { in: 'Clocked in', break: 'On a break', back: 'Back from the break', out: 'Clocked out' } as const;
type Action = keyof typeof ACTIONS;
const COMMAND = { in: 'clockIn', break: 'startBreak', back: 'endBreak', out: 'clockOut' } as const;

const PunchBody = Type.Object({
  name: LoginBody.properties.name,
  pin: LoginBody.properties.pin,
  action: Type.Union((Object.keys(ACTIONS) as Action[]).map((a) => Type.Literal(a)), { description: 'in, break (a break begins), back (it ends), out (a break under way ends with it)' }),
});
const Punched = Type.Object({
  message: Type.String(), user_id: Type.String(), name: Type.String(), action: PunchBody.properties.action,
  shift_id: Type.String(), at: Type.String({ format: 'date-time' }),
});
const Moment = Type.String({ format: 'date-time', description: 'ISO 8601 with its offset' });
const Correction = Type.Object({
  clocked_in_at: Moment, clocked_out_at: Moment,
  break_minutes: Type.Integer({ minimum: 0, maximum: 1440, description: 'breaks taken, whole minutes' }),
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'why, for the audit trail' }),
});
const NewShift = Type.Object({ user_id: Type.String({ format: 'uuid' }), ...Correction.properties });
const Corrected = Type.Object({ id: Type.String(), message: Type.Literal('Shift corrected') });
const PUNCH = "Any member of staff at any tablet, with name and PIN and no session: a shift begins (in), a break begins (break) or ends (back), the shift ends (out). Throttled as a sign-in is (one lock for every use of a PIN). 409 names what stands in the way (`code`: clocked_in, not_clocked_in, on_break, not_on_break). An Idempotency-Key is scoped to the member and the action (the PIN is never part of what is kept).";
const CORRECT = "A manager's correction: the shift's times and breaks as they were, replacing what was punched; recorded with who and why (the audit trail's time_corrected). A correction of the shift under way ends it.";

/**
 * The time clock (issue 60): punches with the PIN, and a manager's corrections. The hours are read in
 * time-clock-hours.ts.
 */
export default async function timeClockRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = await staffSessions(app);
  const shifts = app.deps.readStore.collection<TimeShiftView>(TIME_SHIFTS);
  const correctionOf = (request: FastifyRequest, userId: string, shiftId: string, body: Static<typeof Correction>) => ({
    userId, shiftId, clockedInAt: Date.parse(body.clocked_in_at), clockedOutAt: Date.parse(body.clocked_out_at), breakMinutes: body.break_minutes,
    by: request.staff!.id, reason: body.reason, at: app.now(), context: writeContext(request),
  });

  app.post('/time-clock/punch', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['time clock'], summary: 'Clock in or out, or take a break, with name and PIN', description: PUNCH, body: PunchBody,
      response: {
        200: Punched, 400: Type.Ref('ValidationFailed'), 401: Type.Ref('Message', { description: "{message:'Invalid credentials'}" }),
        409: Conflict('A punch out of turn', { code: Type.String({ description: 'clocked_in, not_clocked_in, on_break, not_on_break' }), since: Type.Integer({ description: 'ms, when the shift or the break began' }) }), 429: withHeaders(TooMany, Headers.retryAfter),
      },
    },
  }, async (request, reply) => {
    const { name, pin, action } = request.body;
    const member = await sessions.checkPin(request, name, pin);
    if (member && 'retryAfter' in member) return tooManyAttempts(reply, member.retryAfter);
    if (!member) return reply.code(401).send({ message: 'Invalid credentials' });
    const at = app.now();
    const command = action === 'in'
      ? { type: COMMAND.in, userId: member.id, shiftId: newId(), at }
      : { type: COMMAND[action], userId: member.id, at };
    const result = await app.deps.commands.handle(timeClock, timeClockStream(member.id), command, punchContext(request, member.id, action));
    await app.readYourWrite(result.position);
    const shift = result.state.open?.shiftId ?? result.events.at(-1)?.data.shiftId ?? '';
    return { message: ACTIONS[action], user_id: member.id, name: member.name, action, shift_id: shift, at: new Date(at).toISOString() };
  });

  app.put('/time-clock/shifts/:id', {
    config: { permission: 'time-clock:manage' },
    schema: { tags: ['time clock'], summary: 'Correct a shift', description: CORRECT, params: IdParams, body: Correction, response: { 200: Corrected, ...commonErrors } },
  }, async (request) => {
    const shift = await shifts.get(request.params.id);
    if (!shift) throw notFound();
    const { position } = await correctShift(app.deps.commands, correctionOf(request, shift.user_id, shift.id, request.body));
    await app.readYourWrite(position);
    return { id: shift.id, message: 'Shift corrected' as const };
  });

  app.post('/time-clock/shifts', {
    config: { permission: 'time-clock:manage' },
    schema: { tags: ['time clock'], summary: 'Record a shift never clocked', description: `${CORRECT} 404 when user_id is no member of staff.`, body: NewShift, response: { 201: Corrected, ...commonErrors } },
  }, async (request, reply) => {
    const id = newResourceId(request, 'time-shift');
    const { position } = await correctShift(app.deps.commands, correctionOf(request, request.body.user_id, id, request.body));
    await app.readYourWrite(position);
    return reply.code(201).send({ id, message: 'Shift corrected' as const });
  });
}

/**
 * A punch's context: the member is who did it; an Idempotency-Key is scoped to the member, and its
 * fingerprint covers the action alone, never the PIN (a hash of a four-digit PIN is the PIN).
 */
function punchContext(request: FastifyRequest, userId: string, action: Action): CommandContext {
  const key = idempotencyKey(request, userId);
  const context: CommandContext = { userId, correlationId: request.id };
  if (key === undefined) return context;
  return { ...context, idempotency: { key, fingerprint: createHash('sha256').update(`time-clock/punch:${action}`).digest('hex') } };
}
