import { resolve } from 'node:path';
import { args, fail, sqliteConfig } from './cli.js';
import { RestoreRefused, restoreBackup } from './restore.js';

// npm run restore -- FILE [--data-dir DIR]   (default: COMANDA_DATA_DIR)
const { values, positionals } = args({ 'data-dir': { type: 'string' } });
const config = sqliteConfig('restore');
const file = positionals[0];
if (!file || positionals.length > 1) fail('usage: npm run restore -- FILE [--data-dir DIR]');
const dataDir = typeof values['data-dir'] === 'string' ? resolve(values['data-dir']) : config.dataDir;
try {
  const { report } = await restoreBackup(resolve(file), dataDir);
  console.log(`restored ${file} into ${dataDir}: ${report.events} events in ${report.streams} streams, head position ${report.head ?? 'none'}`);
} catch (error) {
  fail(error instanceof RestoreRefused ? `restore refused: ${error.message}` : `restore failed: ${(error as Error).message}`);
}
