import t from 'tap';
import { OneLinePerRequest } from '../src/logging.js';
import { milliseconds } from '../src/request-line.js';

// What pino writes for a response time: the double rounded to whole microseconds, printed by V8.
const asPino = (ms: number) => `${Math.round(ms * 1000) / 1000}`;

t.test('a response time is written as pino writes it, from integers', async (t) => {
  const edges = [0, -0, 0.0004, 0.0005, 0.0015, 0.001, 0.01, 0.1, 0.12, 0.123, 1, 1.2, 1.23, 1.2345, 9.9995, 10, 99.0001, 999.9996,
    30_000.5, 2_147_483.646, 2_147_483.6475, 1e7, 1e12, -1, Number.NaN, Number.POSITIVE_INFINITY];
  for (const ms of edges) t.equal(milliseconds(ms), asPino(ms), `${ms}`);
  // Many values, seeded so a failure names one that can be tried again.
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  let differ = 0;
  for (let i = 0; i < 200_000; i++) {
    const ms = random() * 10 ** (i % 6);
    if (milliseconds(ms) !== asPino(ms)) differ++;
  }
  t.equal(differ, 0, '200,000 times from 0 to 100 s, every one the same text');
});

t.test('the line carries that time, and the id and method as they are', async (t) => {
  const lines: string[] = [];
  const controller = new OneLinePerRequest({ write: (line: string) => void lines.push(line) }, 'info');
  controller.answered('req-zz', 'DELETE', '/orders/1', '127.0.0.1', '/orders/:id', 204, 12.30049, { error: () => {} });
  t.ok(lines[0]!.includes('"reqId":"req-zz","method":"DELETE",'));
  t.ok(lines[0]!.includes('"responseTime":12.3,'), 'trailing zeros dropped');
  t.match(JSON.parse(lines[0]!), { reqId: 'req-zz', method: 'DELETE', statusCode: 204, responseTime: 12.3 });
});
