import t from 'tap';
import { timeClock, timeClockStream } from '@comanda/domain';
import { correctShift } from '../src/index.js';
import { restaurant } from './restaurant.js';

// Issue 60: a manager's correction of a shift on the time clock, given the roster: a member's shift is
// set as it was, with who and why; someone not on the roster has no clock, and nothing is written.

const H = 3_600_000;

t.test('a correction lands on the member\'s own clock; no member, no clock', async (t) => {
  const r = await restaurant();
  const waiter = r.ids.waiter;
  const correction = { shiftId: 's1', clockedInAt: 10 * H, clockedOutAt: 18 * H, breakMinutes: 30, by: 'm1', reason: 'forgot to clock out', at: 20 * H, context: {} };
  const { position } = await correctShift(r.commands, { userId: waiter, ...correction });
  t.ok(position !== null, 'written');
  const { state } = await r.commands.state(timeClock, timeClockStream(waiter));
  t.same(state, { open: null, shifts: ['s1'] });

  const stranger = '00000000-0000-4000-8000-000000000000';
  await t.rejects(correctShift(r.commands, { userId: stranger, ...correction }), { kind: 'not_found', message: 'No such member of staff' });
  t.same((await r.commands.state(timeClock, timeClockStream(stranger))).state.shifts, [], 'nothing written');
});
