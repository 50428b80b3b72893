import { concatBytes } from '@noble/hashes/utils.js';
import { fail } from './errors.js';

// BOLT 1 type-length-value streams: BigSize types and lengths, strictly increasing types.

export interface TlvRecord {
  type: bigint;
  value: Uint8Array;
}

export class ByteReader {
  private at = 0;
  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get remaining(): number {
    return this.bytes.length - this.at;
  }

  take(length: number, what: string): Uint8Array {
    if (length > this.remaining) fail(`truncated ${what}`);
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }

  u8(what: string): number {
    return this.take(1, what)[0];
  }

  u16(what: string): number {
    const b = this.take(2, what);
    return (b[0] << 8) | b[1];
  }

  bigSize(what: string): bigint {
    const first = this.u8(what);
    if (first < 0xfd) return BigInt(first);
    const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    const value = beToBigInt(this.take(width, what));
    const minimum = first === 0xfd ? 0xfdn : first === 0xfe ? 0x10000n : 0x100000000n;
    if (value < minimum) fail(`non-minimal encoding of ${what}`);
    return value;
  }
}

export function beToBigInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

export function writeBigSize(value: bigint): Uint8Array {
  if (value < 0xfdn) return Uint8Array.of(Number(value));
  const [marker, width] = value <= 0xffffn ? [0xfd, 2] : value <= 0xffffffffn ? [0xfe, 4] : [0xff, 8];
  return concatBytes(Uint8Array.of(marker), bigIntToBe(value, width));
}

export function bigIntToBe(value: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  let rest = value;
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** Truncated u64: big-endian without leading zero bytes. */
export function readTu64(bytes: Uint8Array, what: string): bigint {
  if (bytes.length > 8) fail(`${what} is too long`);
  if (bytes.length > 0 && bytes[0] === 0) fail(`non-minimal encoding of ${what}`);
  return beToBigInt(bytes);
}

export function writeTu64(value: bigint): Uint8Array {
  const full = bigIntToBe(value, 8);
  const firstNonZero = full.findIndex((byte) => byte !== 0);
  return firstNonZero === -1 ? new Uint8Array(0) : full.slice(firstNonZero);
}

export function readTlvStream(bytes: Uint8Array): TlvRecord[] {
  const reader = new ByteReader(bytes);
  const records: TlvRecord[] = [];
  while (reader.remaining > 0) {
    const type = reader.bigSize('type');
    const length = reader.bigSize('length');
    if (length > BigInt(reader.remaining)) fail(`truncated value of type ${type}`);
    const previous = records.at(-1);
    if (previous && type <= previous.type) fail('TLV types are not strictly increasing');
    records.push({ type, value: reader.take(Number(length), `value of type ${type}`) });
  }
  return records;
}

export function writeTlvStream(records: readonly TlvRecord[]): Uint8Array {
  const sorted = [...records].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return concatBytes(...sorted.flatMap((r) => [writeBigSize(r.type), writeBigSize(BigInt(r.value.length)), r.value]));
}
