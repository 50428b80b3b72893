import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Milliseconds since the epoch; tests inject a {@link ManualClock} so timestamps and expiry are exact. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  private current: number;
  constructor(current: number) {
    this.current = current;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

/** Source of every key, preimage and id the simulator makes, so one seed reproduces a whole run. */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}

export const cryptoRandom: RandomSource = { bytes: (length) => new Uint8Array(randomBytes(length)) };

/** Deterministic stream: HMAC-SHA256(seed, counter) blocks. Not for secrets outside tests and demos. */
export function seededRandom(seed: string): RandomSource {
  const key = createHash('sha256').update(seed, 'utf8').digest();
  let counter = 0;
  return {
    bytes(length) {
      const out = new Uint8Array(length);
      for (let at = 0; at < length; at += 32) {
        const block = createHmac('sha256', key).update(String(counter++)).digest();
        out.set(block.subarray(0, Math.min(32, length - at)), at);
      }
      return out;
    },
  };
}

export function randomHex(random: RandomSource, length: number): string {
  return Buffer.from(random.bytes(length)).toString('hex');
}

/** RFC 4122 version 4 layout over the given random bytes. */
export function randomUuid(random: RandomSource): string {
  const b = random.bytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
