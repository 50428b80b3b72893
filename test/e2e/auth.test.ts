import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

t.test('the bootstrap admin logs in over real HTTP; the account survives a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-auth-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => first.stop());
  // Not a terminal: the generated secrets go to an owner-only file, never into the output (a log).
  t.match(first.output(), /"msg":"First admin \\"admin\\" created with a generated PIN and wallet password: read them from the file/);
  const secretsFile = join(dataDir, 'first-admin.secret');
  t.equal(statSync(secretsFile).mode & 0o777, 0o600);
  const generated = JSON.parse(readFileSync(secretsFile, 'utf8')) as { pin: string; walletPassword: string };
  t.match(generated, { pin: /^\d{6}$/, walletPassword: /^\S{12,}$/ });
  const pin = generated.pin;
  t.notMatch(first.output(), generated.walletPassword, 'the wallet password is not printed');
  t.notMatch(first.output(), new RegExp(`"pin"|${pin}`), 'nor the PIN');
  for (const line of first.output().trim().split('\n')) t.doesNotThrow(() => JSON.parse(line), 'every line is structured');

  const tablet = new Client(first.url);
  t.equal((await tablet.get('/users')).status, 401);
  const login = await tablet.login('admin', pin);
  t.match(login.body, { message: 'Login successful', user: { name: 'admin', role: 'admin' } });
  t.match(login.headers.getSetCookie().join('\n'), /accessToken=[^;]+;.*HttpOnly.*SameSite=Strict/);
  const created = await tablet.post('/users', { name: 'Marisol', pin: '2580', role: 'waiter' });
  t.equal(created.status, 201);
  t.equal((await tablet.post('/auth/refresh')).status, 200);
  t.equal((await tablet.get('/auth/me')).status, 200);
  t.equal((await tablet.post('/auth/logout')).status, 200);
  t.equal((await tablet.get('/auth/me')).status, 401);
  t.equal(await first.stop(), 0);

  const second = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => second.stop());
  t.notMatch(second.output(), /First admin/, 'not created twice');
  const again = new Client(second.url);
  await again.login('admin', pin);
  const users = (await again.get('/users')).body as Array<{ name: string }>;
  t.same(users.map((u) => u.name).sort(), ['Marisol', 'admin']);
  const waiter = new Client(second.url);
  await waiter.login('marisol', '2580');
  t.equal((await waiter.get('/users')).status, 403);
  t.equal(await second.stop(), 0);
});
