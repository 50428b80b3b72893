import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAFF_STREAM, findByName, roster } from '@comanda/domain';
import { verifySecret } from '@comanda/api';
import { AdminRefused, createUser, listUsers, resetPin, setWalletPassword } from '../src/admin.js';
import { DataDirBusy, acquireDataDirLock, dataDirInUse, lockPath } from '../src/data-dir-lock.js';
import { sourceDataDir, tempDir } from './helpers.js';

t.test('admin use cases append through the roster decider, as the API does', async (t) => {
  const { deps, commands, store } = sourceDataDir(t);
  t.match(await createUser(deps, '  Rosa ', 'admin', '864213'), /^created admin Rosa \(id /);
  await t.rejects(createUser(deps, 'rosa', 'waiter', '1234'), /A user named rosa already exists/);
  await t.rejects(createUser(deps, 'Leo', 'chef', '1234'), AdminRefused);
  await t.rejects(createUser(deps, 'Leo', 'waiter', '12a4'), /4 to 12 digits/);
  t.equal(await resetPin(deps, 'ROSA', '111222'), 'new PIN set for Rosa');
  await t.rejects(resetPin(deps, 'Nadie', '111222'), /no user named Nadie/);
  await t.rejects(setWalletPassword(deps, 'Rosa', 'short'), /8 to 128/);
  await createUser(deps, 'Leo', 'waiter', '4321');
  await t.rejects(setWalletPassword(deps, 'Leo', 'long-enough-pass'), /Only an admin has a wallet password/);
  await setWalletPassword(deps, 'Rosa', 'long-enough-pass');

  const { state } = await commands.state(roster, STAFF_STREAM);
  const rosa = findByName(state, 'rosa')!;
  t.ok(await verifySecret('111222', deps.masterKey, 'Rosa', rosa.pinHash), 'the new PIN is what login checks');
  t.notOk(await verifySecret('864213', deps.masterKey, 'Rosa', rosa.pinHash));
  t.ok(await verifySecret('long-enough-pass', deps.masterKey, 'Rosa', rosa.walletPasswordHash!));
  t.match(await listUsers(deps), /^Leo\twaiter\t\S+\nRosa\tadmin\t\S+$/);
  const events = await store.readStream(STAFF_STREAM);
  t.same(events.map((e) => e.type), ['UserCreated', 'UserPinChanged', 'UserCreated', 'WalletPasswordSet']);
  t.match(events[0]!.metadata, { userId: null, causationId: 'admin-cli' });
});

t.test('the data dir lock: one live holder; a holder killed with -9 leaves nothing to clean up', async (t) => {
  const dir = tempDir(t, 'lock');
  const lock = acquireDataDirLock(dir);
  t.ok(dataDirInUse(dir));
  t.throws(() => acquireDataDirLock(dir), DataDirBusy);
  lock.release();
  t.notOk(dataDirInUse(dir));

  // Another process holds it until it is killed; the kernel drops its lock, whatever pid comes next.
  const lockModule = new URL('../src/data-dir-lock.ts', import.meta.url).href;
  const typescript = process.execArgv.filter((a) => a.includes('@tapjs/typescript') || a.includes('typescript-imports'));
  const holder = spawn(process.execPath, [...typescript, '--input-type=module', '-e', `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)}); acquireDataDirLock(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => holder.stdout!.on('data', (c: Buffer) => c.toString().includes('held') && resolve()));
  t.ok(dataDirInUse(dir), 'held by a live process');
  t.throws(() => acquireDataDirLock(dir), DataDirBusy);
  holder.kill('SIGKILL');
  await new Promise((r) => holder.once('exit', r));
  const again = acquireDataDirLock(dir);
  t.ok(existsSync(lockPath(dir)));
  again.release();
  // A pid file of an earlier release, naming this very process, is no lock.
  writeFileSync(join(dir, 'comanda.pid'), `${process.pid}\n`);
  const once = acquireDataDirLock(dir);
  once.release();
  once.release();
  t.notOk(existsSync(join(dir, 'comanda.pid')));
  t.notOk(dataDirInUse(dir), 'releasing twice is harmless');

  // A lock file that is not one (damaged, or something else's) is an error, never taken for "busy".
  const odd = tempDir(t, 'odd-lock');
  writeFileSync(lockPath(odd), 'this is not a SQLite database, it is a note '.repeat(50));
  let error: unknown;
  try {
    acquireDataDirLock(odd);
  } catch (e) {
    error = e;
  }
  t.ok(error instanceof Error && !(error instanceof DataDirBusy) && /not a database/.test(error.message), String(error));
  t.throws(() => dataDirInUse(odd), /not a database/);
});
