import t from 'tap';
import { bytesOf, putAscii, putBytes, putDigits, putInteger, putJsonString } from '../src/line-bytes.js';

/** What a put wrote, as text, and that it returned the offset right after it. */
function written(put: (into: Buffer, at: number) => number): string {
  const into = Buffer.alloc(1024, 0x2a);
  const end = put(into, 3);
  return into.toString('utf8', 3, end);
}

t.test('integers as JSON writes them', async (t) => {
  for (const n of [0, 1, 9, 10, 99, 100, 101, 200, 204, 999, 1000, 1_764_000_000_123, 2 ** 53]) t.equal(written((b, at) => putInteger(b, at, n)), JSON.stringify(n), `${n}`);
  t.equal(written((b, at) => putDigits(b, at, 5, 3)), '005', 'a fixed count of digits keeps leading zeros');
});

t.test('strings as JSON.stringify writes them, escapes and UTF-8 included', async (t) => {
  const odd = ['', '/', '/orders?x="y"', '/a\\b', '/tab\there', '/nul\u0000\u001f\u007f', '/caf\u00e9/\u2028/\ud83c\udf7d', '/lone\ud800', '::ffff:10.0.0.8', '~ !#$%&\'()*+,-./:;<=>?@[]^_`{|}'];
  // Named by index: a U+2028 in a test's name would break its TAP line.
  for (const [i, s] of odd.entries()) {
    const text = written((b, at) => putJsonString(b, at, s));
    t.equal(text, JSON.stringify(s), `string ${i}`);
    t.ok(Buffer.byteLength(text) <= 6 * s.length + 2, 'within 6 bytes a unit, plus the quotes');
  }
});

t.test('constant bytes and ASCII copied as they are', async (t) => {
  t.equal(written((b, at) => putBytes(b, at, bytesOf('{"level":30,"h\u00e9":'))), '{"level":30,"h\u00e9":');
  t.equal(written((b, at) => putAscii(b, at, 'req-1z')), 'req-1z');
});
