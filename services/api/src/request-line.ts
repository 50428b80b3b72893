import { hostname } from 'node:os';
import { type EncodedLine, bytesOf, putAscii, putBytes, putDigits, putInteger, putJsonString } from '@comanda/runtime';

const LEVEL_AND_TIME = bytesOf('{"level":30,"time":');
const METHOD = bytesOf('","method":"');
const URL = bytesOf('","url":');
const REMOTE_ADDRESS = bytesOf(',"remoteAddress":');
const STATUS_CODE = bytesOf(',"statusCode":');
const RESPONSE_TIME = bytesOf(',"responseTime":');
const END = bytesOf(',"msg":"request completed"}\n');
/** The constant parts, the time (16), status (16) and response time (32) at their longest. */
const FIXED_BYTES = LEVEL_AND_TIME.length + METHOD.length + URL.length + REMOTE_ADDRESS.length + STATUS_CODE.length + RESPONSE_TIME.length + END.length + 64;

/** What every line of this process carries after its time: its pid and host, and the id's field name. */
export const processFields = (): Uint8Array => bytesOf(`,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`);

/**
 * A request's line, its fields taken when it was answered: the line pino would write for the
 * request's logger (same fields, same order, same text), written as bytes (`encodeInto`) into the
 * batch of the process's log destination, or as a string for another destination. Its fields are
 * the request line only, never a header or body, so there is nothing in it to redact.
 */
export class RequestLine implements EncodedLine {
  readonly maxBytes: number;

  constructor(
    private readonly prefix: Uint8Array,
    private readonly time: number,
    private readonly id: string,
    private readonly method: string,
    private readonly url: string,
    private readonly ip: string | undefined,
    private readonly status: number,
    private readonly elapsedMs: number,
  ) {
    // A UTF-16 unit is at most 6 bytes of JSON (\uXXXX) or 3 of UTF-8.
    this.maxBytes = FIXED_BYTES + prefix.length + id.length + method.length + 6 * url.length + (ip === undefined ? 0 : 6 * ip.length + 2) + 2;
  }

  // A client whose connection is already gone has no address: the field is left out, as pino would.
  // The id (`requestIds`) and the method (one of the parser's method tokens) never need an escape.
  encodeInto(into: Buffer, at: number): number {
    at = putBytes(into, at, LEVEL_AND_TIME);
    at = putInteger(into, at, this.time);
    at = putBytes(into, at, this.prefix);
    at = putAscii(into, at, this.id);
    at = putBytes(into, at, METHOD);
    at = putAscii(into, at, this.method);
    at = putBytes(into, at, URL);
    at = putJsonString(into, at, this.url);
    if (this.ip !== undefined) {
      at = putBytes(into, at, REMOTE_ADDRESS);
      at = putJsonString(into, at, this.ip);
    }
    at = putBytes(into, at, STATUS_CODE);
    at = putInteger(into, at, this.status);
    at = putBytes(into, at, RESPONSE_TIME);
    at = putMilliseconds(into, at, this.elapsedMs);
    return putBytes(into, at, END);
  }

  toString(): string {
    const bytes = Buffer.allocUnsafe(this.maxBytes);
    return bytes.toString('utf8', 0, this.encodeInto(bytes, 0));
  }
}

/**
 * `Math.round(ms * 1000) / 1000` as JSON writes it (pino's responseTime: whole microseconds, no
 * trailing zeros), written as digits from integers instead of printing the double (V8's
 * shortest-round-trip conversion, ~90 ns against ~40 when both made strings). Beyond a small
 * integer's range (never a real request) the double is printed as it was. At most 32 bytes.
 */
export function putMilliseconds(into: Buffer, at: number, ms: number): number {
  const micros = Math.round(ms * 1000);
  if (!(micros >= 0 && micros < 0x7fffffff)) return at + into.write(`${micros / 1000}`, at, 'latin1');
  const whole = Math.floor(micros / 1000);
  let fraction = micros - whole * 1000;
  at = putInteger(into, at, whole);
  if (fraction === 0) return at;
  // Trailing zeros dropped: 1.230 is 1.23, 1.200 is 1.2; leading ones kept: 1.005.
  let places = 3;
  for (; fraction % 10 === 0; places--) fraction /= 10;
  into[at] = 0x2e;
  return putDigits(into, at + 1, fraction, places);
}

const scratch = Buffer.alloc(32);

/** The text `putMilliseconds` writes (for a line given as a string, and the tests). */
export const milliseconds = (ms: number): string => scratch.toString('latin1', 0, putMilliseconds(scratch, 0, ms));
