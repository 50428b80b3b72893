import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandalone } from '../src/standalone-process.js';

/** Issue 18, item 5, over real sockets: SIGTERM is bounded even with a stream open; slow bodies time out. */

const PIN = '2468';

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'admin', pin: PIN }) });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

t.test('SIGTERM with a /wallet/events client connected ends the stream and exits promptly', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-shutdown-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const comanda = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: PIN });
  t.teardown(() => comanda.stop());
  const cookie = await signIn(comanda.url);
  const stream = await new Promise<{ ended: Promise<string> }>((resolve, reject) => {
    const req = request(`${comanda.url}/wallet/events`, { headers: { cookie } }, (res) => {
      let body = '';
      const ended = new Promise<string>((done) => {
        res.on('data', (c: Buffer) => {
          body += c.toString();
          if (body.includes(': connected')) resolve({ ended });
        });
        res.on('end', () => done(body));
        res.on('error', () => done(body));
        res.on('close', () => done(body));
      });
    });
    req.on('error', reject);
    req.end();
  });
  const started = Date.now();
  const exit = await comanda.stop();
  const took = Date.now() - started;
  t.equal(exit, 0, 'a clean exit, not the forced one');
  t.ok(took < 10_000, `stopped in ${took} ms (bound: 10 s)`);
  t.match(await stream.ended, /: connected/, 'the stream was ended by the server');
});

t.test('a request body sent 1 byte at a time is cut off by the request timeout', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-slow-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const comanda = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: PIN, COMANDA_REQUEST_TIMEOUT_MS: '1500' });
  t.teardown(() => comanda.stop());
  const { hostname, port } = new URL(comanda.url);
  const socket = connect(Number(port), hostname);
  await new Promise((r) => socket.once('connect', r));
  socket.write(`POST /auth/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString()));
  const drip = setInterval(() => socket.writable && socket.write(' '), 500);
  const started = Date.now();
  await new Promise((r) => socket.once('close', r));
  clearInterval(drip);
  const took = Date.now() - started;
  t.ok(took < 6_000, `the slow client was cut off after ${took} ms`);
  t.match(answer, /^HTTP\/1\.1 408/, 'answered 408 Request Timeout');
  t.equal((await fetch(`${comanda.url}/`)).status, 200, 'the server is still serving');
});

t.test('security headers over HTTP: nosniff, no framing, CSP; no-store on signed-in answers', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-headers-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const comanda = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: PIN });
  t.teardown(() => comanda.stop());
  const page = await fetch(`${comanda.url}/swagger/`);
  t.equal(page.status, 200);
  t.equal(page.headers.get('x-content-type-options'), 'nosniff');
  t.equal(page.headers.get('x-frame-options'), 'DENY');
  t.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  const cookie = await signIn(comanda.url);
  const me = await fetch(`${comanda.url}/auth/me`, { headers: { cookie } });
  t.equal(me.status, 200);
  t.equal(me.headers.get('cache-control'), 'no-store');
  t.equal((await fetch(`${comanda.url}/base-currency`)).headers.get('cache-control'), null, 'public answers may be cached');
});
