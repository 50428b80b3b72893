import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@comanda/config';
import { type LogFormat, logFormat } from '@comanda/runtime';
import type { Logger } from 'pino';

/** What a newcomer needs once the standalone listens: where to go, and how to sign in the first time. */
export interface StartInfo {
  url: string;
  dataDir: string;
  adminName: string;
  /** Where the first admin's PIN is to be found, in words. */
  pinAt: string;
}

export function startInfo(config: Pick<Config, 'dataDir' | 'adminName' | 'adminPin'>, url: string): StartInfo {
  const secrets = join(config.dataDir, 'first-admin.secret');
  const pinAt = config.adminPin !== null
    ? 'the one set in COMANDA_ADMIN_PIN'
    : existsSync(secrets)
      ? `in ${secrets} (readable by you only; delete it once read)`
      : 'shown once on this terminal when the first admin was created';
  return { url, dataDir: config.dataDir, adminName: config.adminName, pinAt };
}

/** The announcement as plain lines, for a terminal. */
export function startLines(info: StartInfo): string[] {
  return [
    `Comanda is running at ${info.url}`,
    `  API documentation:  ${info.url}/swagger`,
    `  POS (waiters, till): ${info.url}/pos`,
    `  Kitchen screen:     ${info.url}/kitchen`,
    `  Health:             ${info.url}/health`,
    `  First admin:        "${info.adminName}", PIN ${info.pinAt}`,
    `  Data:               ${info.dataDir}`,
    'Stop with Ctrl+C.',
  ];
}

/**
 * Where logs are readable lines (a terminal, unless LOG_FORMAT=json), plain lines written to it;
 * otherwise (a service manager, a log file, `| jq`) one structured line with the same facts, through
 * the announcements logger (written whatever LOG_LEVEL says).
 */
export function announceStart(info: StartInfo, announcements: Logger, format: LogFormat = logFormat(), terminal: { write(s: string): unknown } = process.stdout): void {
  if (format === 'pretty') {
    terminal.write(startLines(info).join('\n') + '\n');
    return;
  }
  announcements.info(
    { event: 'listening', url: info.url, swagger: `${info.url}/swagger`, pos: `${info.url}/pos`, kitchen: `${info.url}/kitchen`, firstAdmin: info.adminName, pinAt: info.pinAt, dataDir: info.dataDir },
    `Comanda is listening on ${info.url} (API docs at ${info.url}/swagger, POS at ${info.url}/pos, kitchen screen at ${info.url}/kitchen; first admin "${info.adminName}", PIN ${info.pinAt})`,
  );
  // Whoever waits for this line (a supervisor, a test) gets it now, not with the next 4 kB of logs.
  announcements.flush();
}
