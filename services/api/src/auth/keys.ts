import { hkdfSync } from 'node:crypto';

/** Keys derived from the master key, one per purpose, so no key serves two ends. */
export const deriveKey = (masterKey: string, purpose: string): string =>
  Buffer.from(hkdfSync('sha256', masterKey, 'comanda', purpose, 32)).toString('hex');
