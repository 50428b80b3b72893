import t from 'tap';
import { type Json, type Schema, resolveRefs, sample, random } from './fuzz/generate.js';
import { encode, fuzzTarget, operationsOf } from './fuzz/setup.js';

/**
 * Boundary and absurd values (issue 39): every parameter of every operation of the served document,
 * and every field of every request body, is sent each of these in turn, the rest of the request valid.
 * Numbers past what a store or Date can hold used to reach SQLite (`datatype mismatch`) as 500s.
 */
t.setTimeout(900_000);

/** As text: query, path and header parameters. */
const TEXT = [
  '9007199254740992', '-9007199254740992', '9007199254740993', '1e308', '-1e308', '1e309', '99999999999999999999', '-99999999999999999999',
  '-0', '0.0', '1e3', '1E+2', '2.5', '0x10', 'Infinity', 'NaN', '', ' ', ' 1', '1 ',
];
/** As raw JSON: body fields (`-0` and 20-digit integers cannot be made by JSON.stringify). */
const JSON_TOKENS = [
  '9007199254740992', '-9007199254740992', '1e308', '-1e308', '99999999999999999999', '-99999999999999999999', '-0', '1e3', '1E-7', '2.5',
  '""', '" "', '"1e308"', '"-0"', 'null',
];

t.test('every parameter and body field of every operation, given boundary and absurd values, answers below 500 as documented', async (t) => {
  const { h, signIn, admin: firstAdmin, ids, doc, check, statuses } = await fuzzTarget(t);
  let admin = firstAdmin;
  const rnd = random(39);
  let requests = 0;
  const send = async (op: Parameters<typeof check>[1], path: string, what: string, req: { method: string; url: string; headers: Record<string, string>; payload?: string }) => {
    requests++;
    const res = await h.app.inject({ method: req.method as 'GET', url: req.url, headers: { cookie: admin, ...req.headers }, ...(req.payload !== undefined ? { payload: req.payload } : {}), remoteAddress: `10.9.${requests % 250}.${(requests >> 8) % 250}` });
    check(t, op, what, res, { url: req.url, headers: req.headers, payload: req.payload?.slice(0, 300) });
    // Logout and refresh end or rotate the session the fuzzer uses: sign in again.
    if (path.startsWith('/auth/') || path === '/wallet/logout') admin = await signIn();
  };

  for (const { path, method, op } of operationsOf(doc)) {
    if (Object.values(op.responses).some((r) => r.content?.['text/event-stream'])) continue;
    const params = op.parameters ?? [];
    const bodySchema = resolveRefs(op.requestBody?.content['application/json']?.schema, doc) as Schema | undefined;
    const body = bodySchema ? sample(bodySchema, ids, rnd) : undefined;
    const valid = Object.fromEntries(params.map((p) => [`${p.in}:${p.name}`, String(sample(p.schema, ids, rnd))]));
    const request = (override: Record<string, string>, payload?: string) => {
      const value = (p: { in: string; name: string }) => override[`${p.in}:${p.name}`] ?? valid[`${p.in}:${p.name}`]!;
      let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => encode(value({ in: 'path', name })));
      const query = params.filter((p) => p.in === 'query' && (p.required || `query:${p.name}` in override)).map((p) => `${encode(p.name)}=${encode(value(p))}`);
      if (query.length) url += `?${query.join('&')}`;
      const headers: Record<string, string> = Object.fromEntries(params.filter((p) => p.in === 'header' && `header:${p.name}` in override).map((p) => [p.name, value(p)]));
      if (payload !== undefined) headers['content-type'] = 'application/json';
      return { method: method.toUpperCase(), url, headers, payload };
    };
    const validPayload = body === undefined ? undefined : JSON.stringify(body);
    for (const p of params) {
      for (const text of TEXT) await send(op, path, `${method.toUpperCase()} ${path} ${p.in} ${p.name}=${JSON.stringify(text)}`, request({ [`${p.in}:${p.name}`]: text }, validPayload));
    }
    for (const leaf of leavesOf(body)) {
      for (const token of JSON_TOKENS) {
        await send(op, path, `${method.toUpperCase()} ${path} body ${leaf.join('.')}=${token}`, request({}, withRawValue(body!, leaf, token)));
      }
    }
  }
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.ok(requests > 2000, `${requests} requests`);
  t.ok((statuses.get('400') ?? 0) > requests / 3, 'most were refused as the bad input they are');
});

/** The path of every leaf of a sampled body. */
function leavesOf(value: Json | undefined, at: string[] = []): string[][] {
  if (value === undefined) return [];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leavesOf(v, [...at, k]));
  return [at];
}

/** The body as JSON text with one leaf written as a raw token. */
function withRawValue(body: Json, path: string[], token: string): string {
  const marker = '\u0000boundary\u0000';
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  if (path.length === 0) return token;
  let target = copy as Record<string, Json>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, Json>;
  target[path.at(-1)!] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), token);
}
