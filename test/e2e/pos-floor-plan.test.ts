import t from 'tap';
import { DESKTOP, LANDSCAPE, PORTRAIT, openOffice, press, shoot, signIn, tablet, tap, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { addPlanTable, boxOf, centre, dragTable, planCell, planTable, tableAt } from '../src/back-office.js';

const SIZES = { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT };

/**
 * Issue 60's floor plan: Lupita (manager) draws the patio with four tables by dragging them onto its
 * grid (one with a finger), makes Marisol's section, and sees a drop onto a taken cell refused and the
 * table back at its cell; Marisol's floor shows the same layout, cell for cell, her section marked.
 */
t.test('a manager draws a space and a section; the waiter sees the same plan', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'floor-plan');
  await lupita.waitForSelector('#new-space', { visible: true });
  await lupita.type('#new-space', 'Patio');
  await press(lupita, '#add-space');
  // The new space's tab comes with the write's answer, not with the list's next 10 s poll.
  await waitText(lupita, /Patio/, '.tabs .tab.active', 5_000);

  const plan = [
    { name: 'P1', seats: '2', shape: 'round', column: 1, row: 1 },
    { name: 'P2', seats: '4', shape: 'square', column: 4, row: 1 },
    { name: 'P3', seats: '6', shape: 'rectangle', column: 1, row: 3 },
    { name: 'P4', seats: '8', shape: 'rectangle', column: 6, row: 2 },
  ];
  const ids: Record<string, string> = {};
  for (const [i, p] of plan.entries()) ids[p.name] = await addPlanTable(lupita, p, i);
  for (const p of [...plan].reverse()) {
    await dragTable(lupita, ids[p.name]!, p.column, p.row, p.name === 'P2' ? 'finger' : 'mouse');
    await tableAt(lupita, ids[p.name]!, p.column, p.row);
  }

  // The keyboard moves a focused table one cell per arrow (and back).
  await lupita.focus(planTable(ids.P4!));
  await lupita.keyboard.press('ArrowLeft');
  await tableAt(lupita, ids.P4!, 5, 2);
  await lupita.keyboard.press('ArrowRight');
  await tableAt(lupita, ids.P4!, 6, 2);

  // A drop onto P1's cell is refused by the API; P3 is drawn back on its own cell.
  await dragTable(lupita, ids.P3!, 1, 1);
  await waitText(lupita, /Table P1 already stands at column 1, row 1/, '.plan-editor .error');
  const [home, now] = [centre(await boxOf(lupita, planCell(1, 3))), centre(await boxOf(lupita, planTable(ids.P3!)))];
  t.same(now.map(Math.round), home.map(Math.round), 'the refused table snapped back to its cell');
  t.ok(await lupita.$(`${planTable(ids.P3!)}[data-column="1"][data-row="3"]`), 'and keeps it');
  await lupita.evaluate(() => window.scrollTo(0, 0));

  const marisol = ((await r.admin.get('/users')).body as Array<{ id: string; name: string }>).find((u) => u.name === 'Marisol')!.id;
  await press(lupita, '#add-section');
  await lupita.type('#section-name', 'Ventana');
  await press(lupita, `#section-sheet [data-value="${ids.P1}"]`);
  await press(lupita, `#section-sheet [data-value="${ids.P2}"]`);
  await lupita.select('#section-waiter', marisol);
  await press(lupita, '#section-sheet .save');
  await waitText(lupita, /Ventana · Marisol · 2 tables/, '.plan-sections');
  problems.push(...(await shoot(lupita, 'floor-plan-editor', SIZES)));

  const stored = (await r.admin.get('/tables')).body as Array<{ id: string; column?: number; row?: number; shape?: string; seats?: number }>;
  t.same(plan.map((p) => stored.find((x) => x.id === ids[p.name])), plan.map((p) => ({ ...stored.find((x) => x.id === ids[p.name]), column: p.column, row: p.row, shape: p.shape, seats: Number(p.seats) })), 'the API holds the plan as drawn');

  // Marisol's floor: the same cells, relative to one another, and her section marked.
  const waiter = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(waiter, 'Marisol', '2580');
  await tap(waiter, 'Patio', '.floor .tabs');
  await waitText(waiter, /Patio/, '.floor .tabs .tab.active');
  await waitText(waiter, /Your section: Ventana/, '#my-section');
  const grid = await boxOf(waiter, '.floor-plan');
  const tiles = await Promise.all(plan.map((p) => boxOf(waiter, `.floor-plan .tile[data-table-id="${ids[p.name]}"]`)));
  const pitch = { x: tiles[1]!.x - tiles[0]!.x, y: tiles[2]!.y - tiles[0]!.y };
  t.same(tiles.map((b) => [Math.round((b.x - grid.x) / (pitch.x / 3)), Math.round((b.y - grid.y) / (pitch.y / 2))]), plan.map((p) => [p.column, p.row]), 'each tile on its cell');
  t.same(await waiter.$$eval('.floor-plan .tile', (es) => es.map((e) => [e.querySelector('.tile-name')!.textContent, e.getAttribute('data-shape'), e.querySelector('.tile-seats')!.textContent, e.hasAttribute('data-mine')])), [
    ['P1', 'round', '2 seats', true], ['P2', 'square', '4 seats', true], ['P3', 'rectangle', '6 seats', false], ['P4', 'rectangle', '8 seats', false],
  ], 'shapes, seats, and her section marked');
  problems.push(...(await shoot(waiter, 'floor-plan-waiter', SIZES)));
  await tap(waiter, 'Salón', '.floor .tabs');
  await waitText(waiter, /Salón/, '.floor .tabs .tab.active');
  t.equal(await waiter.$$eval('.floor .tiles > .tile[data-table-id]', (es) => es.length), 6, 'a space never drawn flows as before');

  // Issue 60: the section's sheet saves with the version it opened with; another manager's change since is a 412 said on the sheet, not overwritten.
  const ventana = ((await r.admin.get('/sections')).body as Array<{ id: string; name: string; table_ids: string[] }>).find((x) => x.name === 'Ventana')!;
  await press(lupita, '.plan-sections [data-section="Ventana"]');
  await lupita.waitForSelector('#section-sheet');
  const read = await r.admin.get(`/sections/${ventana.id}`);
  t.equal((await r.admin.request('PUT', `/sections/${ventana.id}`, { name: 'Ventana', table_ids: ventana.table_ids, waiter_id: null }, { 'if-match': String(read.headers.get('etag')) })).status, 200, 'another manager takes Marisol off it');
  await lupita.$eval('#section-name', (e) => { (e as HTMLInputElement).value = 'Ventanal'; e.dispatchEvent(new Event('input', { bubbles: true })); });
  await press(lupita, '#section-sheet .save');
  await waitText(lupita, /changed by someone else/, '#section-sheet [role="alert"]');
  problems.push(...(await shoot(lupita, 'floor-plan-section-stale', { landscape: LANDSCAPE })));
  t.match((await r.admin.get(`/sections/${ventana.id}`)).body, { name: 'Ventana', waiter_id: null }, 'the other manager\'s change stands');
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});
