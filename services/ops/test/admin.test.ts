import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { STAFF_STREAM, findByName, roster } from '@comanda/domain';
import { verifySecret } from '@comanda/api';
import { AdminRefused, createUser, listUsers, resetPin, setWalletPassword } from '../src/admin.js';
import { DataDirBusy, acquireDataDirLock, lockHolder, lockPath } from '../src/data-dir-lock.js';
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

t.test('the data dir lock: one live holder; a crashed holder is taken over', async (t) => {
  const dir = tempDir(t, 'lock');
  const lock = acquireDataDirLock(dir);
  t.equal(lockHolder(dir), process.pid);
  t.throws(() => acquireDataDirLock(dir), DataDirBusy);
  lock.release();
  t.equal(lockHolder(dir), null);

  // A pid file left by a process that has exited.
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => dead.once('exit', r));
  writeFileSync(lockPath(dir), `${dead.pid}\n`);
  t.equal(lockHolder(dir), null, 'a dead holder does not count');
  const again = acquireDataDirLock(dir);
  t.equal(readFileSync(lockPath(dir), 'utf8'), `${process.pid}\n`);
  again.release();
});
