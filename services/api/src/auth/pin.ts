import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);

/** The seed's parameters: PBKDF2WithHmacSHA256, 10,000 iterations, 256-bit key. */
export const PIN_HASH = { iterations: 10_000, keyLength: 32, digest: 'sha256' } as const;

/** Salt = the application master key followed by the user name, as the seed says. Stored Base64. */
export async function hashSecret(secret: string, masterKey: string, userName: string): Promise<string> {
  const key = await derive(secret, masterKey + userName, PIN_HASH.iterations, PIN_HASH.keyLength, PIN_HASH.digest);
  return key.toString('base64');
}

export async function verifySecret(secret: string, masterKey: string, userName: string, stored: string): Promise<boolean> {
  const candidate = Buffer.from(await hashSecret(secret, masterKey, userName), 'base64');
  const expected = Buffer.from(stored, 'base64');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
