import { loadConfigOrExit, persistentSecret } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { createUser, explain, listUsers, resetPin, setWalletPassword, type AdminDeps } from './admin.js';
import { args, fail } from './cli.js';
import { DataDirBusy, acquireDataDirLock } from './data-dir-lock.js';
import { readSecret } from './secret-input.js';

const USAGE = `usage: npm run admin -- <command>
  create-user NAME ROLE       PIN asked on a terminal, or the first line of stdin
  reset-pin NAME              new PIN likewise
  set-wallet-password NAME    an admin's wallet password likewise
  list-users`;

const { positionals } = args();
const [command, ...rest] = positionals;
const config = loadConfigOrExit();

// The SQLite log has one writer: while a standalone owns the data dir, changes go through its API.
// Reading (list-users) needs no lock: WAL lets a reader beside the running writer.
let lock: { release(): void } | undefined;
if (!config.eventStoreUrl && command !== 'list-users') {
  try {
    lock = acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirBusy)) throw error;
    fail(`${error.message}: stop it first, or make the change through its API (POST /users, PUT /users/{id})`, 2);
  }
}
const store = await openEventStore(config);
const deps: AdminDeps = {
  commands: new CommandHandler(store),
  masterKey: persistentSecret(config.dataDir, 'master-key', config.masterKey),
};

let code = 0;
try {
  const run: Record<string, () => Promise<string>> = {
    'create-user': async () => {
      if (rest.length !== 2) throw new Error(USAGE);
      return createUser(deps, rest[0], rest[1], await readSecret('PIN'));
    },
    'reset-pin': async () => {
      if (rest.length !== 1) throw new Error(USAGE);
      return resetPin(deps, rest[0], await readSecret('PIN'));
    },
    'set-wallet-password': async () => {
      if (rest.length !== 1) throw new Error(USAGE);
      return setWalletPassword(deps, rest[0], await readSecret('wallet password'));
    },
    'list-users': async () => listUsers(deps),
  };
  const action = command ? run[command] : undefined;
  if (!action) throw new Error(USAGE);
  console.log(await action());
} catch (error) {
  console.error(explain(error) ?? (error as Error).message);
  code = 1;
} finally {
  await store.close();
  lock?.release();
}
process.exit(code);
