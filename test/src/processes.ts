import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './standalone-process.js';

/**
 * One compiled service (`services/<name>/dist/<file>`) as a real child process, which a test can
 * kill (-9 or TERM) and start again with the same environment: the supervisor of the distributed shape.
 */
export class ServiceProcess {
  child?: ChildProcess;
  private out = '';
  private stopping = false;
  starts = 0;
  /** How long `start` waits for the ready line (a projector catching up on a long history takes longer). */
  startTimeoutMs = 90_000;
  readonly name: string;
  private readonly entry: string | string[];
  private readonly env: Record<string, string>;
  private readonly ready: RegExp;
  private readonly supervise: boolean;

  constructor(
    name: string,
    /** `services/<name>/dist/<file>.js` (run with node), or [binary, ...args]. */
    entry: string | string[],
    env: Record<string, string>,
    /** Resolves once the process says it is ready (a line of its output). */
    ready: RegExp,
    /** Like a supervisor (compose's restart policy): start again when it exits on its own. */
    supervise = false,
  ) {
    this.name = name;
    this.entry = entry;
    this.env = env;
    this.ready = ready;
    this.supervise = supervise;
  }

  output = (): string => this.out;

  async start(): Promise<string> {
    this.starts++;
    const from = this.out.length;
    this.stopping = false;
    // COMANDA_TEST_NODE_FLAGS adds flags to the services' node when studying a run (e.g. `--cpu-prof`).
    const flags = process.env.COMANDA_TEST_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const [cmd, args] = typeof this.entry === 'string' ? [process.execPath, [...flags, join(repoRoot, this.entry)]] : [this.entry[0]!, this.entry.slice(1)];
    const child = spawn(cmd, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const onData = (c: Buffer) => (this.out += c.toString());
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      this.out += `\n[${this.name} exited: ${code ?? signal}]\n`;
      if (this.supervise && !this.stopping) setTimeout(() => void this.start().catch(() => undefined), 300);
    });
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not start:\n${this.out.slice(from)}`)), this.startTimeoutMs);
      const check = () => {
        const m = this.ready.exec(this.out.slice(from));
        if (!m) return;
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve(m[1] ?? '');
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${code ?? signal}) before it was ready:\n${this.out.slice(from)}`));
      });
    });
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Sends `signal` and waits for the exit; a supervised process is not restarted (see `crash`). A
   * process still running 15 s after a SIGTERM is killed, and says so on standard error with its last
   * output: a suite must end, and a shutdown that hangs must be seen, not waited for.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    this.stopping = true;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 15_000)));
    if ((await Promise.race([exited, late])) === 'late') {
      console.error(`${this.name} did not exit within 15 s of ${signal}: killed. Its last output:\n${this.out.slice(-2000)}`);
      child.kill('SIGKILL');
      await exited;
    }
    clearTimeout(timer);
  }
}

/** kill -9; a supervised process comes back on its own, others stay down. */
export async function crash(p: ServiceProcess): Promise<void> {
  const child = p.child!;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

export const eventually = async (check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> => {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not reachable yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
