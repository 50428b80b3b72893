import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

t.test('the bootstrap admin logs in over real HTTP; the account survives a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-auth-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => first.stop());
  const announced = /First admin "admin" created with generated PIN (\d+) and wallet password (\S+) \(shown only this once\)/.exec(first.output());
  t.ok(announced, 'the generated PIN and wallet password are printed once');
  const pin = announced![1]!;

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
