import { loadConfigOrExit } from '@comanda/config';
import { USAGE, UsageError, runCli } from './cli.js';

/** `npm run analytics -- …`: replays the log into the owner's reports. */
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const config = loadConfigOrExit();
try {
  await runCli(process.argv.slice(2), config);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error((error as Error).message);
  process.exit(1);
}
