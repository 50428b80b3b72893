import { backupEventLog } from './backup.js';
import { args, fail, sqliteConfig } from './cli.js';

// npm run backup -- --out FILE
const { values } = args({ out: { type: 'string' } });
const config = sqliteConfig('backup');
if (typeof values.out !== 'string' || !values.out) fail('usage: npm run backup -- --out FILE');
try {
  const m = await backupEventLog({ dataDir: config.dataDir, out: values.out });
  console.log(`backup written to ${values.out}: ${m.events} events, head position ${m.headPosition ?? 'none'}, sha256 ${m.sha256} (manifest ${values.out}.json)`);
} catch (error) {
  fail(`backup failed: ${(error as Error).message}`);
}
