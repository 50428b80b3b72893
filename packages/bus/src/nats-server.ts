import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real nats-server with JetStream on a free loopback port, for tests and local runs. */
export interface NatsServerHandle {
  url: string;
  stop(): Promise<void>;
}

export function natsServerAvailable(binary = 'nats-server'): boolean {
  return spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0;
}

export function freePort(): Promise<number> {
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

export async function startNatsServer(binary = 'nats-server'): Promise<NatsServerHandle> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'comanda-nats-'));
  const child: ChildProcess = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start: ${log}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}: ${log}`));
    });
  });
  child.stderr!.resume();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
