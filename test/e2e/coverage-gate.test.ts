import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';

// The per-workspace coverage gate (test/coverage-gate.mjs) judged on a hand-made workspace.
const gate = resolve(import.meta.dirname, '..', 'coverage-gate.mjs');
const metric = (total: number, covered: number) => ({ total, covered, skipped: 0, pct: total ? (100 * covered) / total : 100 });

function workspace(thresholds: object, unloaded: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gate-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', comanda: { coverage: thresholds } }));
  writeFileSync(join(dir, 'src', 'loaded.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'types.ts'), 'export type T = {\n  a: number;\n};\n');
  writeFileSync(join(dir, 'src', 'unloaded.ts'), unloaded);
  const summary = { total: { lines: metric(10, 9), statements: metric(10, 9), branches: metric(4, 4), functions: metric(2, 2) }, [join(dir, 'src', 'loaded.ts')]: {} };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  return dir;
}

const run = (dir: string) => spawnSync(process.execPath, [gate, '--summary', join(dir, 'summary.json')], { cwd: dir, encoding: 'utf8' });

t.test('passes at or above every threshold; type-only modules are not counted', async (t) => {
  const r = run(workspace({ lines: 90, branches: 100, functions: 100 }, '// nothing but a comment\n'));
  t.equal(r.status, 0, r.stdout + r.stderr);
  t.match(r.stdout, /lines 90\.00 % \(min 90\)/);
});

t.test('a file no test loads counts as uncovered and can fail the run', async (t) => {
  const r = run(workspace({ lines: 80, branches: 100, functions: 100 }, 'export function f() {\n  return 1;\n}\n'));
  t.equal(r.status, 1, r.stdout + r.stderr);
  t.match(r.stdout, /src\/unloaded\.ts/);
  t.match(r.stdout, /lines 69\.23 % \(min 80\).*BELOW THRESHOLD/);
});

t.test('a workspace without thresholds fails', async (t) => {
  const dir = workspace({}, '');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture' }));
  t.equal(run(dir).status, 1);
});
