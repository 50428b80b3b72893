#!/usr/bin/env node
// Import cycles among a folder's TypeScript modules, found with TypeScript's own parser.
//
//   node test/import-cycles.mjs DIR...        every cycle, value imports first (exit 1 when any)
//
// A value cycle is one whose every import is kept at run time: which module of it evaluates first
// depends on who imports the cycle first, and a `const` read at the other's top level is then still
// uninitialised (a TDZ ReferenceError). Type-only imports (`import type`, `{ type X }` only,
// `export type … from`) are erased by the compiler: a cycle of those is listed apart as harmless.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');

const sources = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });

/** A relative specifier as the file it names ('./x.js' → './x.ts'), or null (a package, or not found). */
function target(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.(m?)js$/, '.$1ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Whether an import or export declaration is kept at run time. */
function keepsValue(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return true; // import './side-effect.js'
    if (clause.isTypeOnly) return false;
    if (clause.name) return true;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return true;
    // `import {} from` and `import { type A } from` are both erased (verbatimModuleSyntax off).
    return bindings.elements.some((e) => !e.isTypeOnly);
  }
  if (node.isTypeOnly) return false;
  const clause = node.exportClause;
  return !clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly);
}

/** file → Map(imported file → true when some import of it keeps a value). */
export function importGraph(dirs) {
  const graph = new Map();
  for (const file of dirs.flatMap((d) => sources(resolve(d)))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const edges = new Map();
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier) continue;
      const to = target(file, node.moduleSpecifier.text);
      if (to) edges.set(to, (edges.get(to) ?? false) || keepsValue(node));
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every elementary cycle of the graph (each once, starting at its smallest file), over the edges kept. */
function cycles(graph, keep) {
  const files = [...graph.keys()].sort();
  const found = [];
  for (const start of files) {
    // Only cycles whose smallest file is `start`: each is found once.
    const path = [start];
    const onPath = new Set(path);
    const walk = (file) => {
      for (const [to, value] of graph.get(file) ?? []) {
        if (!keep(value) || to < start || !graph.has(to)) continue;
        if (to === start) found.push([...path]);
        else if (!onPath.has(to)) {
          path.push(to);
          onPath.add(to);
          walk(to);
          onPath.delete(to);
          path.pop();
        }
      }
    };
    walk(start);
  }
  return found;
}

/** { values: cycles kept at run time, typesOnly: cycles with an erased import in them }, as paths relative to `root`. */
export function importCycles(dirs, root = process.cwd()) {
  const graph = importGraph(dirs);
  const show = (cycle) => cycle.map((f) => relative(root, f));
  const values = cycles(graph, (value) => value);
  const key = (c) => c.join('>');
  const valueKeys = new Set(values.map(key));
  const typesOnly = cycles(graph, () => true).filter((c) => !valueKeys.has(key(c)));
  return { values: values.map(show), typesOnly: typesOnly.map(show) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('usage: node test/import-cycles.mjs DIR...');
    process.exit(2);
  }
  const { values, typesOnly } = importCycles(dirs);
  for (const c of values) console.log(`value cycle: ${[...c, c[0]].join(' → ')}`);
  for (const c of typesOnly) console.log(`types only:  ${[...c, c[0]].join(' → ')}`);
  console.log(`${values.length} value cycle(s), ${typesOnly.length} type-only cycle(s)`);
  process.exit(values.length + typesOnly.length > 0 ? 1 : 0);
}
