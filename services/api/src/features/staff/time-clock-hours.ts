import { businessDay, dayRange, isCalendarDate, validationFailed } from '@comanda/domain';
import { TIME_SHIFTS, type TimeShiftView, USERS, type UserView, breakMs, workedMs } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { commonErrors } from '../../http/schemas.js';

const Day = Type.String({ description: 'YYYY-MM-DD, a day in the restaurant time zone (COMANDA_TIMEZONE)' });
const Range = Type.Object({ from: Day, to: Day });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const minutes = (ms: number) => Math.round(ms / 60_000);

const Shift = Type.Object({
  id: Type.String(), user_id: Type.String(), name: Type.String({ description: 'the member as the roster names them now' }),
  day: Type.String({ description: 'the business day the shift began on' }),
  clocked_in_at: Type.String({ format: 'date-time' }),
  clocked_out_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while under way' }),
  on_break: Type.Boolean(), break_minutes: Type.Integer(), worked_minutes: Type.Integer({ description: 'until now while under way' }),
  corrections: Type.Array(Type.Object({ by: Type.String({ description: 'the manager, by name' }), reason: Type.String(), at: Type.String({ format: 'date-time' }) })),
});
const Hours = Type.Object({
  user_id: Type.String(), name: Type.String(), day: Type.String(), shifts: Type.Integer(),
  worked_minutes: Type.Integer(), break_minutes: Type.Integer(), corrected: Type.Boolean({ description: 'a manager corrected one of these shifts' }),
});

/** The time clock's shifts and the hours they add up to, per member and business day (issue 60). */
export default async function timeClockHoursRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const shifts = app.deps.readStore.collection<TimeShiftView>(TIME_SHIFTS);
  const users = app.deps.readStore.collection<UserView>(USERS);
  const tz = app.deps.config.timezone;

  /** The shifts begun on the days from–to, both inclusive, as the back office shows them. */
  async function shiftsBetween(range: { from: string; to: string }) {
    for (const field of ['from', 'to'] as const) if (!isCalendarDate(range[field])) throw validationFailed([{ field, message: 'must be a date YYYY-MM-DD' }]);
    if (range.from > range.to) throw validationFailed([{ field: 'from', message: 'must not be after to' }]);
    const now = app.now();
    const [found, staff] = await Promise.all([
      shifts.find({ clocked_in_at: { $gte: dayRange(range.from, tz).start, $lt: dayRange(range.to, tz).end } }, { sort: { clocked_in_at: 1 } }),
      users.find({}),
    ]);
    const names = new Map(staff.map((u) => [u.id, u.name]));
    const nameOf = (id: string) => names.get(id) ?? 'former staff';
    return found.map((s) => ({
      id: s.id, user_id: s.user_id, name: nameOf(s.user_id), day: businessDay(s.clocked_in_at, tz),
      clocked_in_at: iso(s.clocked_in_at)!, clocked_out_at: iso(s.clocked_out_at), on_break: s.break_since !== null,
      break_minutes: minutes(breakMs(s, now)),
      worked_minutes: minutes(workedMs(s, now)),
      corrections: s.corrections.map((c) => ({ by: nameOf(c.by), reason: c.reason, at: iso(c.at)! })),
    }));
  }

  app.get('/time-clock/shifts', {
    config: { permission: 'time-clock:manage' },
    schema: { tags: ['time clock'], summary: 'Shifts begun between two days, both inclusive, oldest first', querystring: Range, response: { 200: Type.Array(Shift), ...commonErrors } },
  }, async (request) => shiftsBetween(request.query));

  app.get('/time-clock/hours', {
    config: { permission: 'time-clock:manage' },
    schema: {
      tags: ['time clock'], summary: 'Hours worked per member and business day', querystring: Range,
      description: 'Each shift counts on the day it began (a shift past midnight stays on its evening). Breaks are not worked time; a shift under way counts until now.',
      response: { 200: Type.Array(Hours), ...commonErrors },
    },
  }, async (request) => {
    const byMemberDay = new Map<string, Static<typeof Hours>>();
    for (const s of await shiftsBetween(request.query)) {
      const key = `${s.day} ${s.user_id}`;
      const h = byMemberDay.get(key) ?? { user_id: s.user_id, name: s.name, day: s.day, shifts: 0, worked_minutes: 0, break_minutes: 0, corrected: false };
      byMemberDay.set(key, {
        ...h, shifts: h.shifts + 1, worked_minutes: h.worked_minutes + s.worked_minutes, break_minutes: h.break_minutes + s.break_minutes,
        corrected: h.corrected || s.corrections.length > 0,
      });
    }
    return [...byMemberDay.values()].sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name));
  });
}
