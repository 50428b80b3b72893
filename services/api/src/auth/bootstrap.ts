import { randomBytes, randomInt } from 'node:crypto';
import { STAFF_STREAM, newId, roster } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
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
  announce: (line: string) => void,
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
  const generated = [
    settings.adminPin ? null : `PIN ${pin}`,
    settings.walletPassword ? null : `wallet password ${walletPassword}`,
  ].filter(Boolean);
  announce(
    `First admin "${settings.adminName}" created` +
      (generated.length ? ` with generated ${generated.join(' and ')} (shown only this once)` : ''),
  );
  return true;
}
