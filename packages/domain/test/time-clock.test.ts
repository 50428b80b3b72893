import t from 'tap';
import { type TimeClockEvent, timeClock } from '../src/index.js';
import { given } from './given.js';

const ANA = '11111111-1111-4111-8111-111111111111';
const H = 3_600_000;
const NINE = Date.UTC(2026, 10, 28, 9);
const clockedIn: TimeClockEvent = { type: 'ClockedIn', data: { userId: ANA, shiftId: 's1', at: NINE } };
const onBreak: TimeClockEvent = { type: 'BreakStarted', data: { userId: ANA, shiftId: 's1', at: NINE + 3 * H } };
const back: TimeClockEvent = { type: 'BreakEnded', data: { userId: ANA, shiftId: 's1', at: NINE + 3.5 * H } };
const out = (at: number): TimeClockEvent => ({ type: 'ClockedOut', data: { userId: ANA, shiftId: 's1', at } });
const eventsOf = (outcome: { events: TimeClockEvent[] } | { error: unknown }) => ('events' in outcome ? outcome.events : []);
const errorOf = (outcome: { events: TimeClockEvent[] } | { error: unknown }) => ('error' in outcome ? outcome.error : null);
const correct = (o: Partial<{ shiftId: string; clockedInAt: number; clockedOutAt: number; breakMinutes: number; reason: string }> = {}) => ({
  type: 'correctShift' as const, userId: ANA, shiftId: 's1', clockedInAt: NINE, clockedOutAt: NINE + 8 * H, breakMinutes: 30, by: 'm1', reason: 'forgot to clock out', at: NINE + 20 * H, ...o,
});

t.test('a shift: in, a break, back, out', async (t) => {
  t.same(given(timeClock, []).when({ type: 'clockIn', userId: ANA, shiftId: 's1', at: NINE }), { events: [clockedIn] });
  t.same(given(timeClock, [clockedIn]).when({ type: 'startBreak', userId: ANA, at: NINE + 3 * H }), { events: [onBreak] });
  t.same(given(timeClock, [clockedIn, onBreak]).when({ type: 'endBreak', userId: ANA, at: NINE + 3.5 * H }), { events: [back] });
  t.same(given(timeClock, [clockedIn, onBreak, back]).when({ type: 'clockOut', userId: ANA, at: NINE + 8 * H }), { events: [out(NINE + 8 * H)] });
  t.same(given(timeClock, [clockedIn, onBreak, back, out(NINE + 8 * H)]).state, { open: null, shifts: ['s1'] });
});

t.test('punches out of turn are refused with what stands in the way', async (t) => {
  t.same(given(timeClock, [clockedIn]).when({ type: 'clockIn', userId: ANA, shiftId: 's2', at: NINE + H }), {
    error: { kind: 'conflict', message: 'Already clocked in', details: { code: 'clocked_in', since: NINE } },
  });
  for (const type of ['startBreak', 'endBreak', 'clockOut'] as const) {
    t.match(given(timeClock, []).when({ type, userId: ANA, at: NINE }), { error: { kind: 'conflict', message: 'Not clocked in' } }, type);
  }
  t.match(given(timeClock, [clockedIn, onBreak]).when({ type: 'startBreak', userId: ANA, at: NINE + 4 * H }), { error: { message: 'Already on a break' } });
  t.match(given(timeClock, [clockedIn]).when({ type: 'endBreak', userId: ANA, at: NINE + 4 * H }), { error: { message: 'Not on a break' } });
});

t.test('clocking out from a break ends the break first', async (t) => {
  const at = NINE + 4 * H;
  t.same(given(timeClock, [clockedIn, onBreak]).when({ type: 'clockOut', userId: ANA, at }), {
    events: [{ type: 'BreakEnded', data: { userId: ANA, shiftId: 's1', at } }, out(at)],
  });
});

t.test("a manager's correction: recorded with who and why; it closes the shift under way or adds a missing one", async (t) => {
  const corrected: TimeClockEvent = { type: 'TimeCorrected', data: { userId: ANA, shiftId: 's1', clockedInAt: NINE, clockedOutAt: NINE + 8 * H, breakMinutes: 30, by: 'm1', reason: 'forgot to clock out', at: NINE + 20 * H } };
  const open = given(timeClock, [clockedIn]);
  t.same(open.when(correct({ reason: '  forgot to clock out ' })), { events: [corrected] }, 'the reason trimmed');
  t.same(given(timeClock, [clockedIn, corrected]).state, { open: null, shifts: ['s1'] }, 'the open shift is closed');
  t.same(eventsOf(given(timeClock, [clockedIn, corrected]).when({ type: 'clockIn', userId: ANA, shiftId: 's2', at: NINE + 21 * H })).length, 1, 'and a new one may start');
  const missing = given(timeClock, []).when(correct({ shiftId: 's0' }));
  t.same(given(timeClock, [clockedIn, ...eventsOf(missing)]).state, { open: { shiftId: 's1', since: NINE, breakSince: null }, shifts: ['s1', 's0'] }, 'a forgotten shift added, the open one left alone');
});

t.test('a correction that cannot be a shift is refused, naming the field', async (t) => {
  const refused = (o: Parameters<typeof correct>[0]) => errorOf(given(timeClock, []).when(correct(o)));
  t.match(refused({ reason: '   ' }), { kind: 'validation', details: { errors: [{ field: 'reason' }] } });
  t.match(refused({ clockedOutAt: NINE }), { details: { errors: [{ field: 'clocked_out_at', message: 'must be after clocked_in_at' }] } });
  t.match(refused({ clockedOutAt: NINE + 25 * H }), { details: { errors: [{ field: 'clocked_out_at', message: 'a shift lasts at most 24 hours' }] } });
  t.match(refused({ clockedInAt: NINE + 19 * H, clockedOutAt: NINE + 21 * H }), { details: { errors: [{ field: 'clocked_out_at', message: 'must not be in the future' }] } });
  t.match(refused({ breakMinutes: 8 * 60 }), { details: { errors: [{ field: 'break_minutes' }] } });
  t.match(refused({ breakMinutes: 1.5 }), { details: { errors: [{ field: 'break_minutes' }] } });
});
