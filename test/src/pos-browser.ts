import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { type ClientKind, traffic } from './traffic-recorder.js';

/** Where the screens' screenshots go (looked at before a screen is called done). */
export const SHOTS = process.env.POS_SCREENSHOTS ?? join(tmpdir(), 'comanda-pos-screens');
mkdirSync(SHOTS, { recursive: true });

export const LANDSCAPE = { width: 1280, height: 800, hasTouch: true };
// The same touch and mobile flags on both: changing them makes puppeteer reload the page.
export const PORTRAIT = { width: 390, height: 844, hasTouch: true };
export const DESKTOP = { width: 1920, height: 1080, hasTouch: true };

/**
 * A tablet of its own: a browser context (its own cookies, its own remembered name), 1280×800. Its
 * requests are recorded as a client of kind `kind` when COMANDA_RECORD_TRAFFIC is set.
 */
export async function tablet(browser: Browser, url: string, log: string[], who: string, kind: ClientKind = 'tablet'): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await traffic?.watch(page, who, kind);
  await page.setViewport(LANDSCAPE);
  page.on('console', (m) => log.push(`${who} console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (err) => log.push(`${who} pageerror: ${err}`));
  page.on('response', (res) => log.push(`${who} ${res.status()} ${res.request().method()} ${res.url()}`));
  await page.goto(`${url}/pos`);
  return page;
}

/**
 * Signs in on the PIN pad (the POS's and the kitchen display's): the name, then the digits tapped one
 * by one; done when `signedIn` (the POS's top bar by default) shows.
 */
export async function signIn(page: Page, name: string, pin: string, signedIn = 'header.top'): Promise<void> {
  await page.waitForSelector('#login-name');
  await page.$eval('#login-name', (e) => ((e as HTMLInputElement).value = ''));
  await page.type('#login-name', name);
  for (const digit of pin) await page.click(`.keypad [data-key="${digit}"]`);
  await page.click('.keypad .enter');
  await page.waitForSelector(signedIn);
}

/**
 * Waits for what a person would tap to be there and taps it; a button off the screen or under
 * something (the order screen's fixed action bar, once the offline banner and the refusals push the
 * last row of dishes under it) is first brought to the middle, as a finger scrolls to what it means
 * to tap. Puppeteer alone clicks the centre of an element it deems in view even when something
 * covers it: pos-offline-service's beer went to the action bar in the fresh-clone CI, twice. A tap
 * that would still land on something else says what covers it. Nothing is scrolled when the button
 * is in plain view: a page scrolled on every tap jumps when the order's ticket shrinks back, and a
 * tap then lands on the next button (pos-service saw a twelfth line and a dish sheet so).
 */
export async function press(page: Page, selector: string, options?: { clickCount?: number }): Promise<void> {
  const target = await page.waitForSelector(selector, { visible: true });
  const covered = await target!.evaluate((el) => {
    const coveredBy = (whole: boolean) => {
      const box = el.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      const inView = !whole || (box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth);
      if (inView && hit && (el.contains(hit) || hit.contains(el))) return null;
      return hit ? hit.outerHTML.slice(0, 160) : 'the edge of the screen';
    };
    if (coveredBy(true) === null) return null;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    return coveredBy(false);
  });
  if (covered) throw new Error(`${selector} is covered by ${covered}`);
  // Clicked once its box holds still for two frames (puppeteer's locator): a screen still settling
  // (an answer re-rendering the ticket, a scroll clamped as it shrinks) moved the button between the
  // point being taken and the click, and the tap opened the dish beside it (pos-dinner, under load).
  await page.locator(selector).setWaitForEnabled(false).setTimeout(10_000).click(options?.clickCount ? { count: options.clickCount } : undefined);
}

/** A manager opens a screen of the back office: the header's Office, then its tile (office/office.tsx). */
export async function openOffice(page: Page, tile: string): Promise<void> {
  await press(page, '#nav-office');
  await press(page, `#office-${tile}`);
}

/** Taps a free table on the floor and answers how many guests sit down (the POS asks before seating). */
export async function seatTable(page: Page, selector: string, guests = 2): Promise<void> {
  await press(page, selector);
  await press(page, `.guests-sheet [data-guests="${guests}"]`);
}

/** Marisol's tablet on a table she has just seated, its order screen open showing `dish` (a selector) on sale. */
export async function waiterAtTable(browser: Browser, url: string, log: string[], tableId: string, dish: string): Promise<Page> {
  const marisol = await tablet(browser, url, log, 'marisol');
  await signIn(marisol, 'Marisol', '2580');
  await seatTable(marisol, `[data-table-id="${tableId}"][data-status="available"]`);
  await marisol.waitForSelector(`.order .dishes ${dish}:not(.sold-out)`);
  return marisol;
}

/** Clicks the first button whose text contains `text` (inside `scope`). */
export async function tap(page: Page, text: string, scope = 'body'): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const clicked = await page.evaluate((s, t) => {
      const button = Array.from(document.querySelectorAll<HTMLButtonElement>(`${s} button`)).find((b) => b.textContent?.includes(t) && !b.disabled);
      button?.click();
      return Boolean(button);
    }, scope, text);
    if (clicked) return;
    if (Date.now() > deadline) throw new Error(`no enabled button "${text}" in ${scope}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the page's text (inside `scope`) matches. */
export async function waitText(page: Page, pattern: RegExp, scope = 'body', ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = await page.$eval(scope, (e) => (e as HTMLElement).innerText).catch(() => '');
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`${pattern} not in ${scope} after ${ms} ms:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Buttons on screen smaller than a finger (44 px either way). */
export const smallTargets = (page: Page) => page.evaluate(() =>
  Array.from(document.querySelectorAll<HTMLElement>("button, input, select"))
    .filter((e) => e.offsetParent !== null)
    .map((e) => ({ e, r: e.getBoundingClientRect() }))
    .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
    .map(({ e, r }) => `${e.tagName.toLowerCase()} "${(e.textContent || e.getAttribute('placeholder') || e.id).trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`));

/**
 * A screen on both sizes: the wall tablet's landscape and a phone's portrait (or the `sizes` given).
 * Answers what is wrong with it on any: targets under 44 px, or a page wider than the phone.
 */
export async function shoot(page: Page, name: string, sizes: Record<string, typeof LANDSCAPE> = { landscape: LANDSCAPE, portrait: PORTRAIT }): Promise<string[]> {
  const problems: string[] = [];
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewport(viewport);
    await new Promise((r) => setTimeout(r, 150));
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`) });
    for (const small of await smallTargets(page)) problems.push(`${name} ${size}: ${small}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) problems.push(`${name} ${size}: ${overflow} px wider than the screen`);
  }
  await page.setViewport(LANDSCAPE);
  return problems;
}

/** Taps Done on the pay sheet and waits for the sheet to be gone (a tap before it is gone lands on it). */
export async function closeSheet(page: Page): Promise<void> {
  await press(page, '#pay-done');
  await page.waitForSelector('.sheet-backdrop', { hidden: true });
}
