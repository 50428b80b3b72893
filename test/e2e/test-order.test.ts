import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;

// turbo.json names by hand every suite the end-to-end suite waits for (it runs last and alone: it
// starts real servers and needs the cores); a workspace added later must not be forgotten there.
t.test('the end-to-end suite waits for every other workspace\'s tests', async (t) => {
  const withTests = ['packages', 'services']
    .flatMap((dir) => readdirSync(join(root, dir)).map((name) => read(join(dir, name, 'package.json'))))
    .filter((pkg) => (pkg.scripts as Record<string, string> | undefined)?.test !== undefined)
    .map((pkg) => pkg.name as string);
  t.ok(withTests.length >= 15, `${withTests.length} workspaces have tests`);
  const tasks = read('turbo.json').tasks as Record<string, { dependsOn?: string[] }>;
  const waitsFor = (tasks['@comanda/e2e#test']?.dependsOn ?? []).filter((d) => d.endsWith('#test')).map((d) => d.slice(0, -'#test'.length));
  t.same(waitsFor.sort(), withTests.sort());
});
