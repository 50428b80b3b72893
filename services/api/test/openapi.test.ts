import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { testApp } from './harness.js';
import { operationId } from '../src/plugins/openapi.js';

/** Issue 18, item 8: a document client generators can use, checked by redocly (offline) and by hand. */

type Op = { operationId?: string; security?: Array<Record<string, string[]>>; responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }> };

const packageDir = join(dirname(new URL(import.meta.url).pathname), '..');

t.test('the served OpenAPI document passes `redocly lint` and `spectral lint` with no error and no warning', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const dir = mkdtempSync(join(tmpdir(), 'comanda-openapi-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, (await app.inject({ method: 'GET', url: '/swagger/json' })).body);
  const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(process.execPath, [cli, 'lint', file, '--format=summary', `--config=${join(packageDir, 'redocly.yaml')}`], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, timeout: 120_000,
    }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }));
  });
  t.equal(code, 0, 'redocly exits 0');
  t.match(output, /Your API description is valid/, output.slice(-2000));
  t.notMatch(output, /^(error|warning)\s/m, 'no error or warning rule fired');
  t.notMatch(output, /You have \d+ warnings?/, output.slice(-2000));

  const spectral = join(dirname(createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json')), 'dist', 'index.js');
  const linted = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(process.execPath, [spectral, 'lint', file, `--ruleset=${join(packageDir, '.spectral.yaml')}`, '--fail-severity=hint', '--format=text'], {
      env: { ...process.env, NO_COLOR: '1', SCARF_ANALYTICS: 'false' }, timeout: 120_000,
    }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }));
  });
  t.equal(linted.code, 0, `spectral (oas ruleset) finds nothing: ${linted.output.slice(0, 3000)}`);
});

t.test('operations carry operationId and security; statuses and headers are documented', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const doc = (await app.inject({ method: 'GET', url: '/swagger/json' })).json() as { paths: Record<string, Record<string, Op>>; components: { securitySchemes: Record<string, unknown> } };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
  const ids = ops.map((o) => o.op.operationId);
  t.ok(ids.every((id) => typeof id === 'string' && id.length > 0), 'every operation has an operationId');
  t.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  t.equal(doc.paths['/orders/{id}/dishes']!.post!.operationId, 'addOrderLines');
  t.equal(doc.paths['/orders']!.post!.operationId, 'placeOrder');
  t.equal(doc.paths['/tickets/{id}/payments']!.post!.operationId, 'takePayment');
  const generated = ops.filter((o) => o.op.operationId === operationId(o.method, o.path.replace(/\{(\w+)\}/g, ':$1')));
  t.same(generated.map((o) => `${o.method} ${o.path}`), [], 'every operation has a name a person chose (plugins/operation-ids.ts)');
  t.ok(doc.components.securitySchemes.walletAccessToken);
  t.ok(ops.every((o) => Array.isArray(o.op.security)), 'every operation declares security (open ones an empty list)');
  t.same(doc.paths['/users']!.get!.security, [{ accessToken: [] }, { bearerAuth: [] }], 'the cookie, or a bearer token');
  t.same(doc.paths['/wallet/getbalance']!.get!.security, [{ accessToken: [], walletAccessToken: [] }, { bearerAuth: [], walletAccessToken: [] }]);
  t.ok(doc.components.securitySchemes.bearerAuth);
  t.same(doc.paths['/auth/login']!.post!.security, []);
  const open = new Set(['GET /', 'GET /health', 'GET /health/live', 'GET /health/ready', 'GET /base-currency']);
  for (const { path, method, op } of ops) {
    if (!open.has(`${method.toUpperCase()} ${path}`)) t.ok(Object.keys(op.responses).some((s) => s.startsWith('4')), `${method} ${path} documents its 4xx answers`);
  }
  for (const { path, method, op } of ops.filter((o) => o.method !== 'get' && !/^\/(auth\/|wallet\/auth$|wallet\/logout$|webhooks\/)/.test(o.path))) {
    const declared = (op as { parameters?: Array<{ in: string; name: string }> }).parameters ?? [];
    t.ok(declared.some((p) => p.in === 'header' && p.name === 'idempotency-key'), `${method} ${path} declares the Idempotency-Key it honours`);
  }
  for (const { path, method, op } of ops) {
    if (op.security!.length > 0) t.ok(op.responses['401'] && op.responses['403'], `${method} ${path} documents 401 and 403`);
  }
  // Issue 58: a command's write answers 202 when it (or what it sets off) is not readable at the bound.
  const answeredAtOnce = ops.filter((o) => o.method !== 'get' && !o.op.responses['202']).map((o) => `${o.method.toUpperCase()} ${o.path}`);
  t.ok(answeredAtOnce.every((w) => /^POST \/(auth|wallet)\//.test(w) || w === 'PUT /orders/{id}/calculate-total'), `only the sessions', the wallet's and the total's recomputation never answer 202: ${answeredAtOnce.join(', ')}`);
  t.match(doc.paths['/orders']!.post!.responses['202'], { headers: { location: {} } }, 'a 202 says in Location where the write will be read');
  for (const path of ['/wallet/getinfo', '/wallet/getbalance', '/wallet/payments/incoming', '/wallet/payments/incoming/{paymentHash}', '/wallet/payments/outgoing', '/wallet/payments/outgoing/{paymentId}', '/wallet/payments/outgoingbyhash/{paymentHash}']) {
    t.ok(doc.paths[path]!.get!.responses['200']!.content, `GET ${path} documents its 200 body`);
  }
  t.ok(doc.paths['/dishes']!.post!.responses['413'] && doc.paths['/dishes']!.post!.responses['415'], 'body limits documented');
  t.ok(doc.paths['/dishes/{id}']!.get!.responses['200']!.headers!.etag, 'ETag');
  t.ok(doc.paths['/dishes']!.post!.responses['201']!.headers!.location, 'Location');
  t.ok(doc.paths['/auth/login']!.post!.responses['200']!.headers!['set-cookie'], 'Set-Cookie');
  t.ok(doc.paths['/auth/login']!.post!.responses['429']!.headers!['retry-after'], 'Retry-After');
});

t.test('every number a request carries is bounded by its schema, so no value reaches a store out of range', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const doc = (await app.inject({ method: 'GET', url: '/swagger/json' })).json() as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }>; requestBody?: { content: Record<string, { schema: unknown }> } }>>; components: { schemas: Record<string, unknown> } };
  const unbounded: string[] = [];
  const walk = (schema: unknown, where: string): void => {
    if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${where}[${i}]`));
    if (schema === null || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (typeof s.$ref === 'string') return walk(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')], where);
    const types = ([] as unknown[]).concat(s.type ?? []);
    if ((types.includes('integer') || types.includes('number')) && !('const' in s) && !Array.isArray(s.enum)) {
      const low = s.minimum ?? s.exclusiveMinimum;
      const high = s.maximum ?? s.exclusiveMaximum;
      if (typeof low !== 'number' || typeof high !== 'number') unbounded.push(where);
    }
    for (const [k, v] of Object.entries(s)) if (k !== 'examples' && k !== 'example' && k !== 'default') walk(v, k === 'properties' ? where : `${where}.${k}`);
    if (s.properties) for (const [k, v] of Object.entries(s.properties as Record<string, unknown>)) walk(v, `${where}.${k}`);
  };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      for (const p of op.parameters ?? []) walk(p.schema, `${method.toUpperCase()} ${path} ${p.in} ${p.name}`);
      for (const [type, c] of Object.entries(op.requestBody?.content ?? {})) walk(c.schema, `${method.toUpperCase()} ${path} body (${type})`);
    }
  }
  t.same([...new Set(unbounded)], [], 'integers and numbers without a minimum and a maximum');
});
