import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, ReportFold } from '../src/index.js';
import { TZ, at, restaurantNight } from './restaurant-day.js';

// The waiters report's covers and hours (issue 60): hours from the time clock, a shift on the day it began,
// breaks off, a manager's correction replacing what was punched; a cook's hours are not a waiter's.

function withTimeClock(): RecordedEvent[] {
  const log = restaurantNight();
  let position = log.length;
  const add = (stream: string, type: string, data: unknown) => {
    position++;
    const occurredAt = at('2026-03-30T00:00:00Z');
    log.push({ id: `t${position}`, stream, revision: position, position: BigInt(position), type, data, metadata: { occurredAt, schemaVersion: 1 }, recordedAt: occurredAt });
  };
  const staff = (userId: string, name: string, role: string) => add(`user-${userId}`, 'UserCreated', { userId, name, role, pinHash: 'x', createdAt: 0 });
  staff('u1', 'Ana', 'waiter');
  staff('u3', 'Eva', 'waiter');
  staff('u4', 'Cook', 'kitchen');
  const clock = (userId: string, shiftId: string, type: string, iso: string) => add(`timeclock-${userId}`, type, { userId, shiftId, at: at(iso) });
  // Ana, Saturday evening 19:00–00:30 local (a shift past midnight stays on its evening), a 30-minute break.
  clock('u1', 's1', 'ClockedIn', '2026-03-28T18:00:00Z');
  clock('u1', 's1', 'BreakStarted', '2026-03-28T21:00:00Z');
  clock('u1', 's1', 'BreakEnded', '2026-03-28T21:30:00Z');
  clock('u1', 's1', 'ClockedOut', '2026-03-28T23:30:00Z');
  // Eva took no orders: forgot to clock out; the manager corrected it to 4 h with a 15-minute break.
  clock('u3', 's2', 'ClockedIn', '2026-03-28T10:00:00Z');
  add('timeclock-u3', 'TimeCorrected', { userId: 'u3', shiftId: 's2', clockedInAt: at('2026-03-28T10:00:00Z'), clockedOutAt: at('2026-03-28T14:00:00Z'), breakMinutes: 15, by: 'm1', reason: 'forgot', at: at('2026-03-29T09:00:00Z') });
  // The cook, and Luis still on the clock: neither counts (a cook is no waiter; a shift under way has no hours yet).
  clock('u4', 's3', 'ClockedIn', '2026-03-28T09:00:00Z');
  clock('u4', 's3', 'ClockedOut', '2026-03-28T17:00:00Z');
  clock('u2', 's4', 'ClockedIn', '2026-03-29T09:00:00Z');
  return log;
}

t.test('waiters: covers of their completed orders, hours worked and on break from the time clock', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(withTimeClock());
  const rows = (range = {}) => fold.report('waiters')!.result(range).sections.by_waiter!.map((r) => [r.waiter, r.covers, r.hours_worked, r.break_hours]);
  t.same(rows(), [['Luis', 0, 0, 0], ['Ana', 3, 5, 0.5], ['Eva', 0, 3.75, 0.25]]);
  t.same(rows({ from: '2026-03-29', to: '2026-03-29' }), [['Luis', 0, 0, 0], ['Ana', 3, 0, 0]], 'Ana\'s covers on the day her order completed, her hours on the day her shift began');
  t.same(rows({ from: '2026-03-28', to: '2026-03-28' }), [['Luis', 0, 0, 0], ['Ana', 0, 5, 0.5], ['Eva', 0, 3.75, 0.25]]);
});
