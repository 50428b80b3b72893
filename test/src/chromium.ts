import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's Chromium (never a downloaded one): pages are tested in the browser kitchens and tills run. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium on a throwaway profile, one 1280×800 page (a wall tablet); `close` removes the profile too. */
export async function openChromium(): Promise<{ browser: Browser; page: Page; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'comanda-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  return {
    browser, page,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
