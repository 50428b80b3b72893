import t from 'tap';
import { timeClock, timeClockStream } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { TIME_SHIFTS, type TimeShiftView, allProjections, breakMs, workedMs } from '../src/index.js';

// Issue 60: given a member's punches and a manager's correction in the log, when the projections read
// it, then each shift shows its times, its breaks and who corrected it why; worked time leaves breaks out.

const H = 3_600_000;
const NINE = Date.UTC(2026, 10, 28, 9);

t.test('punched shifts, a break under way, and a corrected one', async (t) => {
  const log = new MemoryEventStore();
  const commands = new CommandHandler(log);
  const punch = (userId: string, command: Parameters<typeof timeClock.decide>[0]) => commands.handle(timeClock, timeClockStream(userId), command);
  await punch('ana', { type: 'clockIn', userId: 'ana', shiftId: 's1', at: NINE });
  await punch('ana', { type: 'startBreak', userId: 'ana', at: NINE + 3 * H });
  await punch('ana', { type: 'endBreak', userId: 'ana', at: NINE + 3.5 * H });
  await punch('ana', { type: 'clockOut', userId: 'ana', at: NINE + 8 * H });
  await punch('luis', { type: 'clockIn', userId: 'luis', shiftId: 's2', at: NINE + H });
  await punch('luis', { type: 'startBreak', userId: 'luis', at: NINE + 2 * H });
  await punch('eva', { type: 'clockIn', userId: 'eva', shiftId: 's3', at: NINE });
  await punch('eva', { type: 'correctShift', userId: 'eva', shiftId: 's3', clockedInAt: NINE, clockedOutAt: NINE + 6 * H, breakMinutes: 15, by: 'm1', reason: 'forgot to clock out', at: NINE + 20 * H });

  const store = new MemoryReadStore();
  for (const e of log.readAfter(null, 1_000)) for (const p of allProjections.filter((p) => p.handles.includes(e.type))) await p.apply(e, store);
  // Applied twice (a projector restarting before its checkpoint): nothing changes.
  for (const e of log.readAfter(null, 1_000)) for (const p of allProjections.filter((p) => p.handles.includes(e.type))) await p.apply(e, store);
  const shifts = store.collection<TimeShiftView>(TIME_SHIFTS);

  const ana = (await shifts.get('s1'))!;
  t.match(ana, { user_id: 'ana', clocked_in_at: NINE, clocked_out_at: NINE + 8 * H, break_since: null, break_ms: 0.5 * H, corrections: [] });
  t.equal(workedMs(ana, NINE + 30 * H), 7.5 * H, 'eight hours less the half-hour break');

  const luis = (await shifts.get('s2'))!;
  t.match(luis, { clocked_out_at: null, break_since: NINE + 2 * H });
  t.equal(workedMs(luis, NINE + 3 * H), H, 'under way and on a break: the break is not worked');
  t.equal(workedMs(luis, NINE + 3 * H) + breakMs(luis, NINE + 3 * H), 2 * H, 'worked and break time add up to the shift so far');

  const eva = (await shifts.get('s3'))!;
  t.match(eva, { clocked_out_at: NINE + 6 * H, break_ms: 15 * 60_000, corrections: [{ by: 'm1', reason: 'forgot to clock out', at: NINE + 20 * H }] });
  t.equal(workedMs(eva, NINE + 30 * H), 5.75 * H);
});
