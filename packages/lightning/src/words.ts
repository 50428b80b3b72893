import { bech32 } from '@scure/base';
import { fail } from './errors.js';

// Bech32 payloads are 5-bit words; these helpers convert them with the padding rules of BOLT11/BOLT12.

/** Words to bytes, appending zero bits up to the next byte (how BOLT11 hashes data for its signature). */
export function wordsToBytesPadded(words: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil((words.length * 5) / 8));
  let acc = 0;
  let bits = 0;
  let i = 0;
  for (const word of words) {
    acc = (acc << 5) | word;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out[i++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out[i] = (acc << (8 - bits)) & 0xff;
  return out;
}

/** Words to bytes where the leftover bits must be zero padding (field data, BOLT12 strings). */
export function wordsToBytes(words: readonly number[], what: string): Uint8Array {
  return bech32.fromWordsUnsafe([...words]) ?? fail(`invalid padding in ${what}`);
}

export function bytesToWords(bytes: Uint8Array): number[] {
  return bech32.toWords(bytes);
}

/** Big-endian unsigned integer from words; only values that fit a JS safe integer are accepted. */
export function wordsToInt(words: readonly number[], what: string): number {
  let value = 0n;
  for (const word of words) value = (value << 5n) | BigInt(word);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) fail(`${what} is too large`);
  return Number(value);
}

/** Shortest big-endian word encoding of a non-negative integer (0 encodes as no words). */
export function intToWords(value: number): number[] {
  const words: number[] = [];
  let rest = BigInt(value);
  while (rest > 0n) {
    words.unshift(Number(rest & 31n));
    rest >>= 5n;
  }
  return words;
}

/** Fixed-width big-endian word encoding, for the 35-bit timestamp. */
export function intToFixedWords(value: number, width: number): number[] {
  const words = intToWords(value);
  if (words.length > width) throw new RangeError(`${value} does not fit in ${width} words`);
  return [...new Array<number>(width - words.length).fill(0), ...words];
}
