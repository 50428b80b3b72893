import { resolve } from 'node:path';
import { eventLogPath } from './backup.js';
import { args, fail, sqliteConfig } from './cli.js';
import { verdict, verifyEventLog } from './verify.js';

// npm run verify [-- FILE]   (default: the data dir's events.db)
const { positionals } = args();
const file = positionals[0] ? resolve(positionals[0]) : eventLogPath(sqliteConfig('verify').dataDir);
let report;
try {
  report = verifyEventLog(file);
} catch (error) {
  fail(`FAILED ${file}: ${(error as Error).message}`);
}
console.log(verdict(file, report));
process.exit(report.ok ? 0 : 1);
