import t from 'tap';
import pino from 'pino';
import { CommandHandler } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { buildApp } from '../src/index.js';
import { ADMIN, testApp } from './harness.js';

/** Issue 18, item 1: a lockout never locks out a whole restaurant, and an attacker cannot aim or dodge it. */

const attempt = (app: Awaited<ReturnType<typeof testApp>>['app'], name: string, pin: string, ip: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/auth/login', remoteAddress: ip, headers, payload: { name, pin } });

t.test('five typos by one waiter lock only that waiter at that address', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  await h.as('waiter');
  await h.as('kitchen');
  const till = '192.168.1.20';
  for (let i = 0; i < 5; i++) t.equal((await attempt(h.app, 'waiter-1', '0000', till)).statusCode, 401);
  const locked = await attempt(h.app, 'waiter-1', '4321', till);
  t.equal(locked.statusCode, 429, 'the pair is locked, even with the right PIN');
  t.equal(locked.headers['retry-after'], '60');
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, till)).statusCode, 200, 'a colleague at the same address still signs in');
  t.equal((await attempt(h.app, 'kitchen-1', '4321', till)).statusCode, 200);
  t.equal((await attempt(h.app, 'WAITER-1', '4321', '192.168.1.21')).statusCode, 200, 'the same waiter on another tablet still signs in');
  t.equal((await attempt(h.app, 'admin', '0000', till)).statusCode, 401, 'one typo by someone else afterwards is a plain 401');
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, till)).statusCode, 200);
  t.equal((await attempt(h.app, 'Waiter-1', '4321', till)).statusCode, 429, 'names are matched ignoring case');
  h.clock.now += 61_000;
  t.equal((await attempt(h.app, 'waiter-1', '4321', till)).statusCode, 200, 'after the wait; the success clears the pair');
  for (let i = 0; i < 4; i++) t.equal((await attempt(h.app, 'waiter-1', '0000', till)).statusCode, 401, 'four typos after a success are plain 401s');
});

t.test('an address guessing many names hits a much higher ceiling (50 failures a minute)', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const attacker = '203.0.113.9';
  for (let i = 0; i < 49; i++) t.equal((await attempt(h.app, `guess-${i % 10}-${Math.floor(i / 10)}`, '0000', attacker)).statusCode, 401);
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, attacker)).statusCode, 200, 'below the ceiling a correct PIN still works');
  t.equal((await attempt(h.app, 'guess-last', '0000', attacker)).statusCode, 401, 'the 50th failure');
  const blocked = await attempt(h.app, 'admin', ADMIN.pin, attacker);
  t.equal(blocked.statusCode, 429, 'the address is locked');
  t.ok(Number(blocked.headers['retry-after']) > 0 && Number(blocked.headers['retry-after']) <= 60);
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, '198.51.100.7')).statusCode, 200, 'other addresses are untouched');
  h.clock.now += 61_000;
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, attacker)).statusCode, 200, 'the ceiling resets after the minute');
});

t.test('X-Forwarded-For counts only from a trusted proxy', async (t) => {
  const open = await testApp();
  t.teardown(open.close);
  // No proxy trusted: a client naming other addresses is still itself, and cannot lock out the till.
  for (let i = 0; i < 5; i++) await attempt(open.app, 'admin', '0000', '10.1.1.1', { 'x-forwarded-for': `172.16.0.${i}` });
  t.equal((await attempt(open.app, 'admin', ADMIN.pin, '10.1.1.1', { 'x-forwarded-for': '172.16.0.99' })).statusCode, 429, 'a forged header does not dodge the lock');
  t.equal((await attempt(open.app, 'admin', ADMIN.pin, '10.1.1.2', { 'x-forwarded-for': '10.1.1.1' })).statusCode, 200, 'nor aim it at another address');

  const proxied = await testApp({ COMANDA_TRUSTED_PROXIES: '10.0.0.0/8' });
  t.teardown(proxied.close);
  for (let i = 0; i < 5; i++) await attempt(proxied.app, 'admin', '0000', '10.0.0.2', { 'x-forwarded-for': '198.51.100.1' });
  t.equal((await attempt(proxied.app, 'admin', ADMIN.pin, '10.0.0.3', { 'x-forwarded-for': '198.51.100.1' })).statusCode, 429, 'behind the proxy, the client address is the one it forwards');
  t.equal((await attempt(proxied.app, 'admin', ADMIN.pin, '10.0.0.2', { 'x-forwarded-for': '198.51.100.2' })).statusCode, 200, 'another client behind the same proxy is not locked');
});

/**
 * Issue 58: the counters are not read models (nothing in the log rebuilds them), so they live behind
 * their own port; replicas share them through it, whatever read store each one reads.
 */
t.test('counters are shared by every replica through the attempt counter, not the read store', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const replica = await buildApp(
    {
      config: h.config, store: h.store, readStore: new MemoryReadStore(), attempts: h.attempts, bus: h.bus, commands: new CommandHandler(h.store),
      gate: h.projector, masterKey: 'k'.repeat(64), now: () => h.clock.now, health: [],
    },
    { logStream: pino.destination('/dev/null') },
  );
  t.teardown(() => replica.close());
  const ip = '10.2.2.2';
  for (let i = 0; i < 3; i++) t.equal((await attempt(h.app, 'admin', '0000', ip)).statusCode, 401);
  for (let i = 0; i < 2; i++) t.equal((await attempt(replica as never, 'admin', '0000', ip)).statusCode, 401);
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, ip)).statusCode, 429, 'five failures over two replicas lock the pair on the first');
  t.equal((await attempt(replica as never, 'admin', ADMIN.pin, ip)).statusCode, 429, 'and on the second');
});

t.test('a burst of 100 attempts at once: at most five PINs are checked, and the right one after them is refused', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const address = '203.0.113.77';
  const burst = await Promise.all([
    ...Array.from({ length: 99 }, (_, i) => attempt(h.app, 'admin', String(100000 + i), address)),
    attempt(h.app, 'admin', ADMIN.pin, address),
  ]);
  const checked = burst.filter((r) => r.statusCode === 401 || r.statusCode === 200).length;
  t.ok(checked <= 5, `${checked} PINs checked`);
  t.equal(burst.filter((r) => r.statusCode === 429).length, 100 - checked, 'every other attempt is 429');
  t.equal(burst.at(-1)!.statusCode, 429, 'the right PIN, behind five wrong ones in flight, is refused');
  t.equal((await attempt(h.app, 'admin', ADMIN.pin, address)).statusCode, 429, 'and stays refused until the lock ends');

  const cookie = await h.login(ADMIN.name, ADMIN.pin);
  const unlock = (password: string) => h.app.inject({ method: 'POST', url: '/wallet/auth', remoteAddress: address, headers: { cookie }, payload: { password } });
  const wallet = await Promise.all([...Array.from({ length: 99 }, (_, i) => unlock(`wrong-password-${i}`)), unlock(ADMIN.walletPassword)]);
  t.ok(wallet.filter((r) => r.statusCode !== 429).length <= 5, 'the wallet password likewise');
  t.equal(wallet.at(-1)!.statusCode, 429);
});
