import { randomBytes, randomInt } from 'node:crypto';
import { STAFF_STREAM, newId, roster } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { hashSecret } from './pin.js';

export interface FirstAdminSettings {
  adminName: string;
  adminPin: string | null;
  walletPassword: string | null;
}

/**
 * On first start with no users, creates the first admin. Values not configured are generated and
 * handed to `announce` once (the console at start); a restart or a second replica creates nothing.
 */
export async function bootstrapFirstAdmin(
  commands: CommandHandler,
  masterKey: string,
  settings: FirstAdminSettings,
  announce: (line: string, generated: GeneratedSecrets) => void,
): Promise<boolean> {
  const { state } = await commands.state(roster, STAFF_STREAM);
  if (Object.keys(state.members).length > 0) return false;
  const pin = settings.adminPin ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
  const walletPassword = settings.walletPassword ?? randomBytes(12).toString('base64url');
  const result = await commands.handle(roster, STAFF_STREAM, {
    type: 'bootstrapAdmin',
    userId: newId(),
    name: settings.adminName,
    pinHash: await hashSecret(pin, masterKey, settings.adminName),
    walletPasswordHash: await hashSecret(walletPassword, masterKey, settings.adminName),
    at: Date.now(),
  });
  if (result.events.length === 0) return false;
  const generated: GeneratedSecrets = {
    ...(settings.adminPin ? {} : { pin }),
    ...(settings.walletPassword ? {} : { walletPassword }),
  };
  const names = [generated.pin && 'PIN', generated.walletPassword && 'wallet password'].filter(Boolean);
  // The line never carries the secrets: where they are shown is the caller's choice (see firstAdminAnnouncer).
  announce(`First admin "${settings.adminName}" created` + (names.length ? ` with a generated ${names.join(' and ')}` : ''), generated);
  return true;
}

/** Secrets the first start generated because none were configured. */
export interface GeneratedSecrets {
  pin?: string;
  walletPassword?: string;
}

/**
 * Shows generated first-admin secrets exactly once and never in a log: on a terminal, plain lines
 * written straight to it; otherwise (a service manager, stdout into a log file) a file readable
 * by the owner only, `first-admin.secret` in the data dir, whose path is logged. Delete it once read.
 */
export function firstAdminAnnouncer(logger: Logger, dataDir: string, terminal: { isTTY?: boolean; write(s: string): unknown } = process.stdout) {
  return (line: string, generated: GeneratedSecrets) => {
    if (!generated.pin && !generated.walletPassword) return logger.info({ event: 'first-admin' }, line);
    if (terminal.isTTY) {
      const shown = [generated.pin && `  PIN:             ${generated.pin}`, generated.walletPassword && `  Wallet password: ${generated.walletPassword}`].filter(Boolean);
      terminal.write(`${line} (shown only this once):\n${shown.join('\n')}\n`);
      return;
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, 'first-admin.secret');
    writeFileSync(file, JSON.stringify(generated) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    logger.info({ event: 'first-admin', secretsFile: file }, `${line}: read them from the file (owner only), then delete it`);
  };
}
