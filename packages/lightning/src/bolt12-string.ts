import { fail } from './errors.js';
import { bytesToWords, wordsToBytes } from './words.js';

// BOLT12 strings use the bech32 alphabet without a checksum, and may be split with `+` and whitespace.
const ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

export function readBolt12String(input: string): { hrp: string; bytes: Uint8Array } {
  const trimmed = input.trim();
  if (trimmed !== trimmed.toLowerCase() && trimmed !== trimmed.toUpperCase()) fail('mixed case');
  const joined = trimmed.toLowerCase().replace(/([a-z0-9])\+\s*(?=[a-z0-9])/g, '$1');
  const separator = joined.lastIndexOf('1');
  if (separator < 1) fail('missing separator');
  const words = [...joined.slice(separator + 1)].map((char) => {
    const word = ALPHABET.indexOf(char);
    if (word === -1) fail(`invalid character ${char}`);
    return word;
  });
  return { hrp: joined.slice(0, separator), bytes: wordsToBytes(words, 'offer') };
}

export function writeBolt12String(hrp: string, bytes: Uint8Array): string {
  return `${hrp}1${bytesToWords(bytes).map((word) => ALPHABET[word]).join('')}`;
}
