import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Test } from 'tap';
import { CHROMIUM, openChromium } from './chromium.js';
import { shoot } from './pos-browser.js';
import { posRestaurant } from './pos-setup.js';
import { startStandalone } from './standalone-process.js';

/**
 * The stage of a POS test in Chromium on an empty restaurant (only its first admin, PIN 1234): a
 * standalone on a fresh data dir (MXN, fixed rates, `env` added), Chromium open, and `look`, which
 * shoots a screen at both sizes and keeps what is wrong with it. Everything stops with the test; the
 * log is printed when it fails. Null (the test failed, saying why) when there is no Chromium.
 */
export async function emptyStage(t: Test, env: Record<string, string> = {}) {
  if (!existsSync(CHROMIUM)) {
    t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return null;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-pos-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({
    COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_RATES: 'USD=97000.00,MXN=1750000.00', COMANDA_BASE_CURRENCY: 'MXN', ...env,
  });
  t.teardown(() => pos.stop());
  const chromium = await openChromium();
  t.teardown(chromium.close);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-300).join('\n'), '\nSERVER', pos.output().slice(-3000)); });
  const problems: string[] = [];
  const look = async (page: Page, name: string) => void problems.push(...(await shoot(page, name)));
  return { pos, chromium, log, problems, look, dataDir };
}

/** The stage of emptyStage with the restaurant set up over HTTP (pos-setup's posRestaurant). */
export async function posStage(t: Test, env: Record<string, string> = {}) {
  const stage = await emptyStage(t, env);
  if (!stage) return null;
  return { ...stage, r: await posRestaurant(stage.pos.url) };
}
