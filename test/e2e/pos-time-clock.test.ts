import t from 'tap';
import { DESKTOP, LANDSCAPE, PORTRAIT, openOffice, press, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { punch } from '../src/back-office.js';

type Hours = { name: string; day: string; shifts: number; worked_minutes: number; break_minutes: number; corrected: boolean };
type Shift = { id: string; name: string; clocked_out_at: string | null; corrections: Array<{ by: string; reason: string }> };

/**
 * Issue 60: the time clock. Marisol clocks in, takes a break and comes back on any tablet's sign-in card
 * with her PIN, without signing in; a wrong PIN and a punch out of turn say why. Lupita, the manager,
 * reads the hours in the back office, corrects the shift with a reason, and the hours and the audit
 * trail show the correction.
 */
t.test('waiters punch the time clock with their PIN; the manager reads the hours and corrects a shift', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;

  const wall = await tablet(chromium.browser, pos.url, log, 'wall-tablet');
  t.match(await punch(wall, 'Marisol', '2580', 'in'), /^Clocked in: Marisol at /);
  problems.push(...(await shoot(wall, 'time-clock', { landscape: LANDSCAPE, portrait: PORTRAIT, desktop: DESKTOP })));
  t.match(await punch(wall, 'Marisol', '2580', 'in'), 'Already clocked in', 'a second clock-in says why');
  t.match(await punch(wall, 'Marisol', '9999', 'break'), 'Wrong name or PIN');
  t.match(await punch(wall, 'Marisol', '2580', 'break'), /^On a break: Marisol/);
  t.match(await punch(wall, 'Marisol', '2580', 'back'), /^Back from the break: Marisol/);
  t.equal(await wall.$eval('.pin-dots', (e) => e.textContent), 'PIN', 'the PIN is cleared after each punch');
  t.equal(await wall.$('header.top'), null, 'nobody was signed in by punching');

  // Lupita reads the hours in the back office.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'hours');
  await waitText(lupita, /Marisol/, '#hours-table');
  const today = ((await r.admin.get('/time-clock/shifts?from=2000-01-01&to=2100-01-01')).body as Array<Shift & { day: string }>)[0]!;
  const hours = (await r.admin.get(`/time-clock/hours?from=${today.day}&to=${today.day}`)).body as Hours[];
  t.match(hours, [{ name: 'Marisol', shifts: 1, corrected: false }], 'the API has her shift today');
  problems.push(...(await shoot(lupita, 'hours', { landscape: LANDSCAPE, portrait: PORTRAIT, desktop: DESKTOP })));

  // She corrects the shift: in two hours ago, out one hour ago, a 15-minute break, with why.
  await press(lupita, `[data-shift-id="${today.id}"] .correct`);
  const local = (msAgo: number) => { const d = new Date(Date.now() - msAgo); d.setSeconds(0, 0); return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16); };
  await lupita.$eval('#shift-in', (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, local(2 * 3_600_000));
  await lupita.$eval('#shift-out', (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, local(3_600_000));
  await lupita.$eval('#shift-breaks', (e) => { (e as HTMLInputElement).value = '15'; e.dispatchEvent(new Event('input', { bubbles: true })); });
  await lupita.type('#shift-reason', 'Forgot to clock out');
  problems.push(...(await shoot(lupita, 'hours-correct', { landscape: LANDSCAPE, portrait: PORTRAIT })));
  await press(lupita, '#save-shift');
  await lupita.waitForSelector('.sheet-backdrop', { hidden: true });
  // A shift counts on the day it began: run between midnight and 02:00 (restaurant time UTC, as the
  // tablet's), two hours ago was yesterday, and the corrected shift is read under Yesterday.
  const day = new Date(Date.now() - 2 * 3_600_000).toISOString().slice(0, 10);
  if (day !== today.day) await press(lupita, '.hours .segmented [role="tab"]:nth-child(2)');
  await waitText(lupita, /corrected by Lupita: Forgot to clock out/, `[data-shift-id="${today.id}"]`);
  await waitText(lupita, /0 h 45/, '#hours-table');

  const after = (await r.admin.get(`/time-clock/hours?from=${day}&to=${day}`)).body as Hours[];
  t.match(after, [{ name: 'Marisol', worked_minutes: 45, break_minutes: 15, corrected: true }], 'an hour less a 15-minute break');
  const shift = ((await r.admin.get(`/time-clock/shifts?from=${day}&to=${day}`)).body as Shift[])[0]!;
  t.match(shift, { clocked_out_at: String, corrections: [{ by: 'Lupita', reason: 'Forgot to clock out' }] });
  const audit = (await r.admin.get('/audit?kind=time_corrected')).body as { entries: Array<{ staff: string; reason: string; detail: string }> };
  t.match(audit.entries, [{ reason: 'Forgot to clock out', detail: /^Marisol: / }], 'in the audit trail');

  // A new shift may begin: the corrected one is over.
  t.match(await punch(wall, 'Marisol', '2580', 'in'), /^Clocked in: Marisol/);
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});

/**
 * Issue 60: the staff on screen. Lupita adds Rosa as a cook with a PIN; Rosa clocks in with it; Lupita
 * gives her a new PIN (the old one no longer works) and then removes her (her PIN no longer works at all).
 */
t.test('a manager adds a cook, gives her a new PIN and removes her, on the Staff screen', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'staff');
  await waitText(lupita, /Marisol/, '.staff-list');
  await press(lupita, '#add-member');
  await lupita.type('#member-name', 'Rosa');
  await press(lupita, '#member-sheet [data-role="kitchen"]');
  await lupita.type('#member-pin', '2468');
  problems.push(...(await shoot(lupita, 'staff-add', { landscape: LANDSCAPE, portrait: PORTRAIT })));
  await press(lupita, '#member-sheet .save');
  await lupita.waitForSelector('#member-sheet', { hidden: true });
  await waitText(lupita, /Rosa\s*kitchen/, '.staff-list');
  problems.push(...(await shoot(lupita, 'staff', { landscape: LANDSCAPE, portrait: PORTRAIT, desktop: DESKTOP })));
  const rosa = ((await r.admin.get('/users?all=true')).body as Array<{ id: string; name: string; role: string }>).find((u) => u.name === 'Rosa');
  t.match(rosa, { role: 'kitchen' }, 'the API has Rosa as a cook');

  const wall = await tablet(chromium.browser, pos.url, log, 'wall-tablet');
  t.match(await punch(wall, 'Rosa', '2468', 'in'), /^Clocked in: Rosa/, 'her PIN works on the time clock');

  // A new PIN: the old one is refused, the new one works.
  await press(lupita, '[data-member="Rosa"] .change');
  await lupita.type('#member-pin', '8642');
  await press(lupita, '#member-sheet .save');
  await lupita.waitForSelector('#member-sheet', { hidden: true });
  t.match(await punch(wall, 'Rosa', '2468', 'out'), 'Wrong name or PIN', 'the old PIN no longer works');
  t.match(await punch(wall, 'Rosa', '8642', 'out'), /^Clocked out: Rosa/, 'the new one does');

  // A manager may not touch an admin: the API's refusal shows on the sheet.
  await press(lupita, '[data-member="admin"] .change');
  await lupita.type('#member-pin', '5555');
  await press(lupita, '#member-sheet .save');
  await waitText(lupita, /./, '#member-sheet .error');
  await press(lupita, '#member-sheet .secondary:not(.delete)');

  // Removed: her PIN opens nothing.
  await press(lupita, '[data-member="Rosa"] .change');
  await press(lupita, '#member-sheet .delete');
  await press(lupita, '#member-sheet .delete-confirm');
  await lupita.waitForSelector('[data-member="Rosa"]', { hidden: true });
  t.match(await punch(wall, 'Rosa', '8642', 'in'), 'Wrong name or PIN', 'a removed member cannot punch');
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});
