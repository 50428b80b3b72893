import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's postgresql-15 puts its server binaries (not on PATH). */
const BIN_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'];

export function postgresBinDir(): string | null {
  const fromEnv = process.env.COMANDA_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  return BIN_DIRS.find((d) => existsSync(join(d, 'initdb'))) ?? null;
}

export const postgresAvailable = (): boolean => postgresBinDir() !== null;

export interface PostgresServer {
  /** postgres://… of the `comanda` database. */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown (the data stays). */
  stop(): Promise<void>;
  /** Starts the same cluster again on the same port (a restart test). */
  start(): Promise<void>;
  /** Simulates a crash: immediate shutdown, no checkpoint; the next start runs crash recovery. */
  crash(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root. Tests often do (CI containers), so the server then runs as the
 * `postgres` system user Debian's package creates (or `nobody`), owning a private temp directory.
 */
function runAs(): { uid: number; gid: number; name: string } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (r.status === 0 && g.status === 0) return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()), name };
  }
  throw new Error('PostgreSQL cannot run as root and neither a postgres nor a nobody user exists');
}

function command(user: { name: string } | null, bin: string, args: string[]): [string, string[]] {
  return user ? ['runuser', ['-u', user.name, '--', bin, ...args]] : [bin, args];
}

function check(result: SpawnSyncReturns<string>, what: string): void {
  if (result.status !== 0) throw new Error(`${what} failed (${result.status ?? result.signal ?? result.error?.message}): ${result.stderr}${result.stdout}`);
}

/**
 * A throwaway cluster: `initdb` into a temp directory, `pg_ctl start` on a free loopback port, one
 * database `comanda` with the C collation (strings sort by code point, as in MongoDB and the memory
 * read store). fsync is off (the data is thrown away; a crash of the server process still loses
 * nothing committed, the OS keeps the pages).
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const user = runAs();
  const root = mkdtempSync(join(tmpdir(), 'comanda-pg-'));
  const dataDir = join(root, 'data');
  const pwfile = join(root, 'pw');
  writeFileSync(pwfile, 'comanda\n');
  if (user) {
    chownSync(root, user.uid, user.gid);
    chownSync(pwfile, user.uid, user.gid);
  }
  chmodSync(root, 0o700);
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = command(user, join(bin, tool), args);
    return spawnSync(cmd, argv, { encoding: 'utf8', cwd: root });
  };
  check(
    run('initdb', ['-D', dataDir, '-U', 'comanda', '--pwfile', pwfile, '--auth-local=trust', '--auth-host=scram-sha-256', '--locale=C', '-E', 'UTF8', '--no-sync']),
    'initdb',
  );
  const port = await freePort();
  // COMANDA_TEST_POSTGRES_OPTIONS adds server options when studying a run (e.g. `-c shared_preload_libraries=pg_stat_statements`).
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${root} -c fsync=off -c full_page_writes=off -c max_connections=200 ${process.env.COMANDA_TEST_POSTGRES_OPTIONS ?? ''}`;
  const start = async () => {
    const log = join(root, 'server.log');
    check(run('pg_ctl', ['-D', dataDir, '-o', options, '-l', log, '-w', '-t', '30', 'start']), 'pg_ctl start');
  };
  const stop = async (mode = 'fast') => {
    if (!existsSync(join(dataDir, 'postmaster.pid'))) return;
    run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
  };
  await start();
  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    await stop('immediate');
    rmSync(root, { recursive: true, force: true });
  };
  // Whatever happens to the test process, the cluster does not outlive it.
  const atExit = () => {
    if (destroyed) return;
    destroyed = true;
    const [cmd, argv] = command(user, join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    spawnSync(cmd, argv, { stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', atExit);
  // A test runner's timeout sends SIGTERM, which skips 'exit' handlers unless the signal is handled.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      atExit();
      process.exit(signal === 'SIGTERM' ? 143 : 130);
    });
  }
  check(run('psql', ['-h', root, '-p', String(port), '-U', 'comanda', '-d', 'postgres', '-c', 'CREATE DATABASE comanda']), 'createdb');
  return {
    url: `postgres://comanda:comanda@127.0.0.1:${port}/comanda`,
    port,
    dataDir,
    stop: () => stop('fast'),
    start,
    crash: () => stop('immediate'),
    destroy,
  };
}

let shared: Promise<PostgresServer> | null = null;

/**
 * The cluster the suites of one test process share: started on first use, removed at exit.
 * `COMANDA_TEST_POSTGRES_URL` points the suites at an existing server instead.
 */
export function sharedPostgres(): Promise<{ url: string }> {
  const url = process.env.COMANDA_TEST_POSTGRES_URL;
  if (url) return Promise.resolve({ url });
  shared ??= startPostgres();
  return shared;
}

/** A new empty database on the same server (a suite that must start from nothing, e.g. one that clears). */
export async function freshDatabase(url: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `comanda_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}
