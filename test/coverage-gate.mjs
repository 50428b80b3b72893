#!/usr/bin/env node
// Coverage gate for one workspace, run after its `tap` in the workspace's directory.
//
// Why this exists: tap 21 knows only "100 % or allow-incomplete-coverage", and it counts only the
// files the tests import, so a module no test loads does not lower the figure at all. This gate
// asks tap for the run's summary, adds every source file no test loaded as entirely uncovered
// (its non-blank, non-comment lines as lines, one function per `function`/`=>`; modules that
// compile to no code, types only, are left out),
// and fails when lines, branches or functions fall below the workspace's thresholds in
// package.json: "comanda": { "coverage": { "lines": N, "branches": N, "functions": N } }.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const cwd = process.cwd();
const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
// `--measure` prints the figures without judging them (how the thresholds were first set).
const measureOnly = process.argv.includes('--measure');
const thresholds = measureOnly ? {} : pkg.comanda?.coverage;
if (!thresholds) {
  console.error(`coverage gate: ${pkg.name} has no "comanda.coverage" thresholds in package.json`);
  process.exit(1);
}

// `--summary FILE` judges a summary already written (the gate's own test); otherwise tap writes it.
const given = process.argv.indexOf('--summary');
if (given < 0) {
  const tapPackage = createRequire(join(cwd, 'package.json')).resolve('tap/package.json');
  const tapBin = join(tapPackage, '..', JSON.parse(readFileSync(tapPackage, 'utf8')).bin.tap);
  execFileSync(process.execPath, [tapBin, 'report', 'json-summary'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}
const summaryFile = given < 0 ? join(cwd, '.tap/report/coverage-summary.json') : resolve(process.argv[given + 1]);
const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
const ts = createRequire(import.meta.url)('typescript');

const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });

/** Lines that are neither blank nor comments. */
function codeLines(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\/\/.*$/, '').trim())
    .filter((l) => l !== '');
}

const totals = { lines: { ...summary.total.lines }, branches: { ...summary.total.branches }, functions: { ...summary.total.functions } };
const unloaded = [];
for (const file of sourceFiles(resolve(cwd, 'src'))) {
  if (summary[file]) continue;
  // Type-only modules compile to nothing: they have no code to cover and are not counted. They are
  // compiled here, in memory, so the answer does not depend on whether dist/ was built before the tests.
  const source = readFileSync(file, 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  if (codeLines(js).filter((l) => l !== 'export {};').length === 0) continue;
  const code = codeLines(source);
  unloaded.push(file.slice(cwd.length + 1));
  totals.lines.total += code.length;
  totals.functions.total += code.filter((l) => /\bfunction\b|=>/.test(l)).length;
}

const pct = (m) => (m.total === 0 ? 100 : (100 * m.covered) / m.total);
let failed = false;
const row = [];
for (const metric of ['lines', 'branches', 'functions']) {
  const got = pct(totals[metric]);
  const want = thresholds[metric];
  if (measureOnly) {
    row.push(`${metric} ${got.toFixed(2)} %`);
    continue;
  }
  if (typeof want !== 'number') {
    console.error(`coverage gate: ${pkg.name} has no "${metric}" threshold`);
    failed = true;
    continue;
  }
  row.push(`${metric} ${got.toFixed(2)} % (min ${want})`);
  if (got < want) failed = true;
}
if (unloaded.length) console.log(`# coverage gate: ${unloaded.length} source file(s) no test loads, counted as uncovered: ${unloaded.join(', ')}`);
console.log(`# coverage gate ${pkg.name}: ${row.join(', ')}${failed ? ' — BELOW THRESHOLD' : ''}`);
process.exit(failed ? 1 : 0);
