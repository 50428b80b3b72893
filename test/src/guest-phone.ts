import type { Browser, Page } from 'puppeteer-core';
import { PORTRAIT } from './pos-browser.js';

/** A guest's phone: its own context, 390×844, the browser's language `lang`, opened at `url`. */
export async function phone(browser: Browser, url: string, lang: string, log: string[]): Promise<Page> {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport(PORTRAIT);
  await page.evaluateOnNewDocument((l) => Object.defineProperty(navigator, 'language', { get: () => l }), lang);
  page.on('pageerror', (err) => log.push(`pageerror: ${err}`));
  page.on('console', (m) => log.push(`console ${m.type()}: ${m.text()}`));
  page.on('response', (res) => void (res.status() >= 400 && log.push(`answer ${res.status()} ${new URL(res.url()).pathname}`)));
  await page.goto(url);
  return page;
}
