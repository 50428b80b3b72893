import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfigOrExit, type Config } from '@comanda/config';

/** One line to stderr and the exit code: every command line tool ends the same way on a refusal. */
export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The configuration, refusing the shapes whose log is not the SQLite file in the data dir. */
export function sqliteConfig(command: string): Config {
  const config = loadConfigOrExit();
  if (config.eventStoreUrl) {
    fail(`${command} works on the SQLite event log; with COMANDA_EVENTSTORE_URL set use the store's own tools (see docs/operations.md)`);
  }
  return config;
}

export function args(options: NonNullable<ParseArgsConfig['options']> = {}) {
  try {
    return parseArgs({ args: process.argv.slice(2), options, allowPositionals: true, strict: true });
  } catch (error) {
    return fail((error as Error).message);
  }
}
