import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './standalone-process.js';

/** Runs one of the operations command lines (services/ops/dist/<tool>-main.js), as `npm run <tool>` does. */
export function runTool(tool: 'admin' | 'backup' | 'restore' | 'verify', argv: string[], env: Record<string, string>, stdin?: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, `services/ops/dist/${tool}-main.js`), ...argv], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.stdin.end(stdin ?? '');
    child.on('exit', (code) => resolve({ code, out }));
  });
}
