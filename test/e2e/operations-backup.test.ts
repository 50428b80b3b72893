import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';
import { runTool } from '../src/tools.js';

// Several processes start one after another; a loaded machine needs more than the default two minutes.
t.setTimeout(300_000);

t.test('operations over real processes: a backup under load restores to a data dir that verifies and serves', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'comanda-e2e-backup-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  const env = { COMANDA_DATA_DIR: dataDir };
  const pos = await startStandalone({ ...env, COMANDA_ADMIN_PIN: '864213' });
  t.teardown(() => pos.stop());
  const rosa = new Client(pos.url);
  await rosa.login('admin', '864213');

  // Traffic while a backup is taken from another process.
  let writing = true;
  let written = 0;
  const traffic = (async () => {
    while (writing) {
      const res = await rosa.post('/categories', { name: `Especiales ${written}` });
      if (res.status === 201) written++;
    }
  })();
  while (written < 20) await new Promise((r) => setTimeout(r, 20));
  const out = join(root, 'backups', 'service.db');
  mkdirSync(join(root, 'backups'));
  const beforeBackup = written;
  const backup = await runTool('backup', ['--out', out], env);
  const atBackup = written;
  writing = false;
  await traffic;
  t.equal(backup.code, 0, backup.out);
  const manifest = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { headPosition: string; events: number };
  t.equal(await pos.stop(), 0);

  // Restore into a new data dir: refused into the old one, then verified and served.
  const again = await runTool('restore', [out], env);
  t.equal(again.code, 1);
  t.match(again.out, /restore refused: .* is not empty/);
  const restored = join(root, 'restored');
  const restore = await runTool('restore', [out], { COMANDA_DATA_DIR: restored });
  t.equal(restore.code, 0, restore.out);
  const verify = await runTool('verify', [], { COMANDA_DATA_DIR: restored });
  t.equal(verify.code, 0);
  t.match(verify.out, new RegExp(`^OK .*: ${manifest.events} events in \\d+ streams, head position ${manifest.headPosition}\\n$`));

  const back = await startStandalone({ COMANDA_DATA_DIR: restored });
  t.teardown(() => back.stop());
  const client = new Client(back.url);
  await client.login('admin', '864213');
  const categories = (await client.get('/categories')).body as Array<{ name: string }>;
  t.ok(
    categories.length >= beforeBackup && categories.length <= atBackup,
    `the backup holds what was written before it began, and nothing after it ended (${beforeBackup} ≤ ${categories.length} ≤ ${atBackup})`,
  );
  t.equal(await back.stop(), 0);
});
