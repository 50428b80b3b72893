import type { Page } from 'puppeteer-core';
import { press } from './pos-browser.js';

/** What a manager's hands do on the back office's sheets, the floor plan and the time clock. */

/** Taps a sheet's Save and waits for the sheet to close (the API said yes). */
export async function saveSheet(page: Page, sheet: string): Promise<void> {
  await press(page, `${sheet} .save`);
  await page.waitForSelector(sheet, { hidden: true });
}

/** Types into a field once it is there: a sheet renders after the tap that opens it. */
export async function fill(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForSelector(selector, { visible: true });
  await page.type(selector, text);
}

/** Replaces what a field holds (three taps select it all), as a finger does. */
export async function retype(page: Page, selector: string, text: string): Promise<void> {
  await press(page, selector, { clickCount: 3 });
  await page.type(selector, text);
}

/** Punches on the sign-in card's Time clock tab: the name, the PIN tapped, then the action's button; answers what the card said. */
export async function punch(page: Page, name: string, pin: string, action: 'in' | 'break' | 'back' | 'out'): Promise<string> {
  await press(page, '#mode-time-clock');
  await page.$eval('#login-name', (e) => ((e as HTMLInputElement).value = ''));
  await page.type('#login-name', name);
  for (const digit of pin) await page.click(`.keypad [data-key="${digit}"]`);
  const before = await page.$eval('#punch-said', (e) => e.textContent).catch(() => null);
  await press(page, `[data-punch="${action}"]`);
  await page.waitForFunction((b) => { const e = document.querySelector('#punch-said'); return e && e.textContent !== b; }, {}, before);
  return page.$eval('#punch-said', (e) => e.textContent ?? '');
}

export type Box = { x: number; y: number; width: number; height: number };
export const planTable = (id: string) => `.plan-table[data-table-id="${id}"]`;
export const planCell = (column: number, row: number) => `.plan-cell[data-column="${column}"][data-row="${row}"]`;
export const boxOf = async (page: Page, selector: string): Promise<Box> => (await (await page.waitForSelector(selector, { visible: true }))!.boundingBox())!;
export const centre = (b: Box) => [b.x + b.width / 2, b.y + b.height / 2] as const;

/** Drags a table of the floor plan (pointer events: the mouse, or a finger) onto a cell of its grid and lets go. */
export async function dragTable(page: Page, id: string, column: number, row: number, by: 'mouse' | 'finger' = 'mouse'): Promise<void> {
  await page.$eval(planTable(id), (e) => e.scrollIntoView({ block: 'center', inline: 'center' }));
  const [fx, fy] = centre(await boxOf(page, planTable(id)));
  const [tx, ty] = centre(await boxOf(page, planCell(column, row)));
  if (by === 'finger') {
    await page.touchscreen.touchStart(fx, fy);
    for (let i = 1; i <= 5; i++) await page.touchscreen.touchMove(fx + ((tx - fx) * i) / 5, fy + ((ty - fy) * i) / 5);
    await page.touchscreen.touchEnd();
    return;
  }
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(tx, ty, { steps: 5 });
  await page.mouse.up();
}

/** Waits for a table of the plan to stand on a cell. */
export const tableAt = (page: Page, id: string, column: number, row: number) => page.waitForSelector(`${planTable(id)}[data-column="${column}"][data-row="${row}"]`);

/**
 * Adds a table on the floor plan's sheet (name, seats, shape) and answers its id: a new table is
 * placed on row 0 at the column `placed` (one per table added before it in the space).
 */
export async function addPlanTable(page: Page, p: { name: string; seats: string; shape: string }, placed: number): Promise<string> {
  await press(page, '#add-table');
  await fill(page, '#table-name', p.name);
  await page.$eval('#table-seats', (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, p.seats);
  await press(page, `#table-sheet [data-shape="${p.shape}"]`);
  await saveSheet(page, '#table-sheet');
  const tile = await page.waitForSelector(`.plan-table[data-column="${placed}"][data-row="0"]`);
  return (await tile!.evaluate((e) => e.getAttribute('data-table-id')))!;
}
