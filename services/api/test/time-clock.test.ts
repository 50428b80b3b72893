import t from 'tap';
import { servedApp } from './harness.js';

// Issue 60: the time clock over HTTP. Waiters punch with name and PIN at any tablet (no session); a
// manager lists the shifts, corrects one with a reason, records a forgotten one, and reads the hours.

const H = 3_600_000;
const MIN = 60_000;

async function restaurant(t: Tap.Test) {
  const s = await servedApp({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  // 09:00 in Mexico City (UTC-6) on a fixed day.
  s.clock.now = Date.UTC(2026, 10, 27, 15);
  const punch = async (action: string, pin = '4321', headers: Record<string, string> = {}, name = 'waiter-1') => {
    const res = await s.request('/time-clock/punch', null, headers, 'POST', { name, pin, action });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };
  const later = (ms: number) => { s.clock.now += ms; };
  return { s, manager, waiter, punch, later };
}

t.test('a waiter clocks in, takes a break, comes back and clocks out with the PIN; the hours leave the break out', async (t) => {
  const { s, manager, punch, later } = await restaurant(t);
  const start = s.clock.now;
  const inside = await punch('in');
  t.equal(inside.status, 200);
  t.match(inside.body, { message: 'Clocked in', name: 'waiter-1', action: 'in', at: new Date(start).toISOString() });
  const shiftId = inside.body.shift_id;
  t.type(shiftId, 'string');
  later(3 * H);
  t.match((await punch('break')).body, { message: 'On a break', shift_id: shiftId });
  later(30 * MIN);
  t.match((await punch('back')).body, { message: 'Back from the break', shift_id: shiftId });
  later(4.5 * H);
  t.match((await punch('out')).body, { message: 'Clocked out', shift_id: shiftId });

  const shifts = await (await s.request('/time-clock/shifts?from=2026-11-27&to=2026-11-27', manager)).json() as Array<Record<string, unknown>>;
  t.match(shifts, [{ id: shiftId, name: 'waiter-1', day: '2026-11-27', clocked_in_at: new Date(start).toISOString(), clocked_out_at: new Date(start + 8 * H).toISOString(), on_break: false, break_minutes: 30, worked_minutes: 450, corrections: [] }]);
  const hours = await (await s.request('/time-clock/hours?from=2026-11-27&to=2026-11-28', manager)).json();
  t.match(hours, [{ name: 'waiter-1', day: '2026-11-27', shifts: 1, worked_minutes: 450, break_minutes: 30, corrected: false }]);
  t.same(await (await s.request('/time-clock/hours?from=2026-11-28&to=2026-11-28', manager)).json(), [], 'nothing the next day');

  // The PIN is in no event, no answer.
  const log = JSON.stringify([...s.store.readAfter(null, 10_000)], (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  // As a value of its own: the four digits inside an id, a hash or a timestamp (seen once in CI) are no PIN.
  t.notMatch(log, /(?<![0-9a-zA-Z-])4321(?![0-9a-zA-Z-])/, 'no PIN in the log');
});

t.test('punches out of turn are 409 naming why; a wrong PIN 401; five wrong ones lock the name as a sign-in does', async (t) => {
  const { punch } = await restaurant(t);
  t.match(await punch('out'), { status: 409, body: { message: 'Not clocked in', code: 'not_clocked_in' } });
  t.match(await punch('break'), { status: 409, body: { code: 'not_clocked_in' } });
  t.equal((await punch('in')).status, 200);
  t.match(await punch('in'), { status: 409, body: { message: 'Already clocked in', code: 'clocked_in' } });
  t.match(await punch('back'), { status: 409, body: { message: 'Not on a break', code: 'not_on_break' } });
  t.equal((await punch('break')).status, 200);
  t.match(await punch('break'), { status: 409, body: { message: 'Already on a break' } });
  t.match(await punch('out'), { status: 200, body: { message: 'Clocked out' } }, 'out from a break');

  t.match(await punch('in', '9999'), { status: 401, body: { message: 'Invalid credentials' } });
  t.match(await punch('in', '4321', {}, 'nobody'), { status: 401 });
  t.match(await punch('dance'), { status: 400 });
  for (let i = 0; i < 4; i++) await punch('in', '9999');
  const locked = await punch('in');
  t.equal(locked.status, 429, 'the right PIN too, while the name is locked');
});

t.test('a retried punch with its Idempotency-Key answers the first punch; a malformed key is 400', async (t) => {
  const { s, manager, punch } = await restaurant(t);
  const first = await punch('in', '4321', { 'idempotency-key': 'punch-1' });
  const again = await punch('in', '4321', { 'idempotency-key': 'punch-1' });
  t.equal(again.status, 200);
  t.equal(again.body.shift_id, first.body.shift_id, 'the same shift, not a 409');
  t.equal((await punch('out', '4321', { 'idempotency-key': ' bad key' })).status, 400);
  const shifts = await (await s.request('/time-clock/shifts?from=2026-11-27&to=2026-11-27', manager)).json() as unknown[];
  t.equal(shifts.length, 1);
});

t.test("a manager corrects a shift with a reason and records a forgotten one; it shows in the hours and the audit trail", async (t) => {
  const { s, manager, waiter, punch, later } = await restaurant(t);
  const start = s.clock.now;
  const shiftId = (await punch('in')).body.shift_id as string;
  later(14 * H);
  const correction = { clocked_in_at: new Date(start).toISOString(), clocked_out_at: new Date(start + 8 * H).toISOString(), break_minutes: 45, reason: 'forgot to clock out' };
  t.equal((await s.request(`/time-clock/shifts/${shiftId}`, waiter, {}, 'PUT', correction)).status, 403, 'not a waiter');
  const corrected = await s.request(`/time-clock/shifts/${shiftId}`, manager, {}, 'PUT', correction);
  t.equal(corrected.status, 200);
  t.same(await corrected.json(), { id: shiftId, message: 'Shift corrected' });

  const me = (await (await s.request('/auth/me', waiter)).json() as { id: string }).id;
  const yesterday = Date.UTC(2026, 10, 26, 16);
  const missing = await s.request('/time-clock/shifts', manager, {}, 'POST', { user_id: me, clocked_in_at: new Date(yesterday).toISOString(), clocked_out_at: new Date(yesterday + 5 * H).toISOString(), break_minutes: 0, reason: 'tablet was down' });
  t.equal(missing.status, 201);

  const hours = await (await s.request('/time-clock/hours?from=2026-11-26&to=2026-11-27', manager)).json();
  t.match(hours, [
    { day: '2026-11-26', worked_minutes: 300, corrected: true },
    { day: '2026-11-27', worked_minutes: 435, break_minutes: 45, corrected: true },
  ]);
  const shifts = await (await s.request('/time-clock/shifts?from=2026-11-27&to=2026-11-27', manager)).json();
  t.match(shifts, [{ id: shiftId, corrections: [{ by: 'manager-1', reason: 'forgot to clock out' }] }]);
  t.equal((await punch('in')).status, 200, 'the corrected shift is over: a new one may begin');

  const audit = await (await s.request('/audit?kind=time_corrected', manager)).json() as { entries: Array<{ staff: string; approved_by: string | null; reason: string; detail: string }> };
  t.match(audit.entries.map((e) => e.reason).sort(), ['forgot to clock out', 'tablet was down']);
  t.match(audit.entries.find((e) => e.reason === 'forgot to clock out'), { detail: 'waiter-1: 2026-11-27 09:00–17:00, 45 min break' });
});

t.test('corrections and reads refuse what cannot be', async (t) => {
  const { s, manager, waiter, punch } = await restaurant(t);
  const shiftId = (await punch('in')).body.shift_id as string;
  const at = (ms: number) => new Date(s.clock.now + ms).toISOString();
  const put = (body: unknown) => s.request(`/time-clock/shifts/${shiftId}`, manager, {}, 'PUT', body);
  const base = { clocked_in_at: at(-2 * H), clocked_out_at: at(-H), break_minutes: 0, reason: 'x' };
  t.equal((await put({ ...base, clocked_out_at: at(-3 * H) })).status, 400, 'out before in');
  t.equal((await put({ ...base, clocked_out_at: at(H) })).status, 400, 'in the future');
  t.equal((await put({ ...base, break_minutes: 60 })).status, 400, 'a break as long as the shift');
  t.equal((await put({ ...base, reason: ' ' })).status, 400, 'no reason');
  t.equal((await put({ ...base, clocked_in_at: 'yesterday' })).status, 400, 'not a date-time');
  t.equal((await s.request('/time-clock/shifts/00000000-0000-4000-8000-000000000000', manager, {}, 'PUT', base)).status, 404);
  t.equal((await s.request('/time-clock/shifts', manager, {}, 'POST', { ...base, user_id: '00000000-0000-4000-8000-000000000000' })).status, 404, 'no such member');
  t.equal((await s.request('/time-clock/hours?from=2026-11-28&to=2026-11-27', manager)).status, 400, 'from after to');
  t.equal((await s.request('/time-clock/hours?from=2026-13-01&to=2026-13-02', manager)).status, 400);
  t.equal((await s.request('/time-clock/hours?from=2026-11-27&to=2026-11-27', waiter)).status, 403);
  t.equal((await s.request('/time-clock/shifts?from=2026-11-27&to=2026-11-27', null)).status, 401);
  const open = await (await s.request('/time-clock/shifts?from=2026-11-27&to=2026-11-27', manager)).json();
  t.match(open, [{ id: shiftId, clocked_out_at: null, corrections: [] }], 'nothing half-written');
});
