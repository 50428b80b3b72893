import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['node_modules', 'dist', 'test'].includes(name) ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });

/**
 * Issue 58. `x as unknown as T` believes anything: an event of the log is narrowed by `isOneOf`
 * (@comanda/event-store), a projection is typed by `projectionOf`. A double cast left in the
 * services' and packages' code is one no type can replace, and says why on the line above it
 * (`// Kept: …`).
 */
t.test('no double cast in the code without a reason no type can give', async (t) => {
  const dirs = ['packages', 'services'].flatMap((top) => readdirSync(join(root, top)).map((name) => join(root, top, name, 'src')));
  const unexplained: string[] = [];
  for (const file of dirs.filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory()).flatMap(sources)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/\bas unknown as\b/.test(line)) return;
      // The comment lines right above the cast.
      let first = i;
      while (first > 0 && /^\s*\/\//.test(lines[first - 1]!)) first--;
      if (!lines.slice(first, i).some((l) => /^\s*\/\/ Kept:/.test(l))) unexplained.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  t.same(unexplained, [], 'every double cast left says why');
});
