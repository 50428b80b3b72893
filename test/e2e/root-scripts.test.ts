import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '..', '..');

// A new user's first `npm start` must not open with turbo's telemetry notice (nor send anything):
// every root script that runs turbo turns its telemetry off itself, not only CI's environment.
t.test('every root script that runs turbo turns its telemetry off', async (t) => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const withTurbo = Object.entries(scripts).filter(([, command]) => /\bturbo run\b/.test(command));
  t.ok(withTurbo.some(([name]) => name === 'start'), 'npm start runs turbo');
  for (const [name, command] of withTurbo) {
    const runs = command.match(/(\S+=\S+ )*turbo run/g) ?? [];
    t.ok(runs.length > 0 && runs.every((run) => run.includes('TURBO_TELEMETRY_DISABLED=1 ')), `${name}: ${command}`);
  }
});
