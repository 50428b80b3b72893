import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandalone } from '../src/standalone-process.js';

/**
 * Issue 18, item 9: with request logs on (info) and everything on (debug), a session of real HTTP
 * traffic leaves no PIN, password, token or stored secret in the process output.
 */
for (const level of ['info', 'debug']) {
  t.test(`no secret in the logs at LOG_LEVEL=${level}`, async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), `comanda-e2e-logs-${level}-`));
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
    const secrets = { pin: '731902', walletPassword: 'wallet-Pa55-e2e', newPin: '5550123', wrongPin: '0000999' };
    const comanda = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: secrets.pin, COMANDA_WALLET_PASSWORD: secrets.walletPassword, LOG_LEVEL: level });
    t.teardown(() => comanda.stop());
    const post = (path: string, body: unknown, cookie = '') =>
      fetch(`${comanda.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
    const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('='));

    t.equal((await post('/auth/login', { name: 'admin', pin: secrets.wrongPin })).status, 401);
    const login = await post('/auth/login', { name: 'admin', pin: secrets.pin });
    t.equal(login.status, 200);
    const cookies = cookiesOf(login);
    const cookie = cookies.join('; ');
    t.equal((await post('/users', { name: 'Rosa', pin: secrets.newPin, role: 'waiter' }, cookie)).status, 201);
    t.equal((await post('/users', { name: 'Bad', pin: secrets.newPin, role: 'waiter', extra: { pin: secrets.newPin } }, cookie)).status, 400);
    const wallet = await post('/wallet/auth', { password: secrets.walletPassword }, cookie);
    t.equal(wallet.status, 200);
    const refreshed = await post('/auth/refresh', {}, cookie);
    t.equal(refreshed.status, 200);
    t.equal((await post('/auth/logout', {}, cookiesOf(refreshed).join('; '))).status, 200);
    await comanda.stop();

    const output = comanda.output();
    t.match(output, /request completed/, 'request logs were on');
    if (level === 'debug') t.match(output, /incoming request/, 'Fastify\'s own request logging: at debug, each request as it comes too');
    t.match(output, /\/auth\/login/);
    const tokens = [...cookies, ...cookiesOf(wallet), ...cookiesOf(refreshed)].map((c) => c.slice(c.indexOf('=') + 1));
    t.ok(tokens.length >= 5, 'tokens to look for');
    const stored = ['master-key', 'webhook-secret'].map((n) => readFileSync(join(dataDir, `${n}.secret`), 'utf8').trim());
    for (const [what, value] of [...Object.entries(secrets), ...tokens.map((v, i) => [`token ${i}`, v]), ['master key', stored[0]], ['webhook secret', stored[1]]] as Array<[string, string]>) {
      t.notOk(output.includes(value), `${what} is not in the output`);
    }
  });
}
