/**
 * Pieces of a JSON log line written straight into a batch's bytes (`EncodedLine`): no string is made
 * for the line, nor for its numbers, and the batch needs no UTF-8 conversion when it is written.
 * Each function writes at `at` and returns the offset after what it wrote; the caller has made room
 * (`EncodedLine.maxBytes`).
 */

/** The bytes of a constant part of a line (UTF-8), made once. */
export const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

/** Copies `bytes` (`set`: ~20 ns for a line's constant part, against ~35 for a loop over its bytes). */
export function putBytes(into: Uint8Array, at: number, bytes: Uint8Array): number {
  into.set(bytes, at);
  return at + bytes.length;
}

/** A string the caller knows to be printable ASCII that needs no escape (a request id, a method token), as it is. */
export function putAscii(into: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) into[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/**
 * A string as `JSON.stringify` writes it, quotes included: at most 6 bytes a UTF-16 unit, plus 2.
 * Printable ASCII but `"` and `\` (addresses, nearly every URL) is copied as it is; anything else is
 * left to `JSON.stringify` (escapes, lone surrogates) and written as UTF-8.
 */
export function putJsonString(into: Buffer, at: number, text: string): number {
  into[at] = 0x22;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return at + into.write(JSON.stringify(text), at, 'utf8');
    into[at + 1 + i] = c;
  }
  into[at + 1 + text.length] = 0x22;
  return at + 2 + text.length;
}

/** A whole number from 0 to 2^53 in decimal, as JSON writes it (at most 16 bytes). */
export function putInteger(into: Uint8Array, at: number, n: number): number {
  let digits = 1;
  for (let power = 10; power <= n; power *= 10) digits++;
  return putDigits(into, at, n, digits);
}

/** `n` in exactly `digits` decimal digits, leading zeros included. */
export function putDigits(into: Uint8Array, at: number, n: number, digits: number): number {
  for (let i = at + digits - 1; i >= at; i--) {
    const rest = Math.floor(n / 10);
    into[i] = 0x30 + (n - rest * 10);
    n = rest;
  }
  return at + digits;
}
