import t from 'tap';
import { type Json, type Schema, ODD_VALUES, deeplyNested, random, resolveRefs, sample, spoil } from './fuzz/generate.js';
import { ADMIN } from './harness.js';
import { encode, fuzzTarget } from './fuzz/setup.js';

/**
 * The OpenAPI fuzzer (issue 18): for every operation in the document the server serves, bad inputs
 * generated from fixed seeds, a bounded number per operation. Every answer must be below 500, have
 * a status the document lists for that operation, and a body that matches the schema listed there.
 * A new route is fuzzed with no new code here. Boundary values: `fuzz-boundaries.test.ts`.
 */
// Every operation × every case over HTTP: minutes on a busy 2-core machine, not tap's default 120 s per file.
t.setTimeout(900_000);

const SEEDS = process.env.COMANDA_FUZZ_SEED ? [Number(process.env.COMANDA_FUZZ_SEED)] : [18, 39];
const CASES_PER_OPERATION = Number(process.env.COMANDA_FUZZ_CASES ?? 14);
type Case = { what: string; method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };

for (const SEED of SEEDS) t.test(`every operation of the served OpenAPI document survives generated bad input (seed ${SEED})`, { timeout: 600_000 }, async (t) => {
  const target = await fuzzTarget(t);
  const { h, signIn, me, ids, doc, check, statuses } = target;
  let admin = target.admin;
  const rnd = random(SEED);

  const cookies = [
    admin, admin, admin, '', 'accessToken=garbage', `accessToken=${'a'.repeat(5000)}`,
    `accessToken=${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: me, role: 'admin', sid: me, typ: 'access' })).toString('base64url')}.`,
    'accessToken=%E0%A4%A', 'accessToken=garbage; accessToken=duplicate; refreshToken=x',
  ];
  const badIds = ['not-a-uuid', '0', '-1', '%zz', '%', 'a%2Fb', 'x'.repeat(150), 'ñandú', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1"];
  let requests = 0;

  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const streaming = Object.values(op.responses).some((r) => r.content?.['text/event-stream']);
      const params = op.parameters ?? [];
      const bodySchema = resolveRefs(op.requestBody?.content['application/json']?.schema, doc) as Schema | undefined;
      const validBody = bodySchema ? sample(bodySchema, ids, rnd) : undefined;
      const validQuery = Object.fromEntries(params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sample(p.schema, ids, rnd))]));

      for (let i = 0; i < CASES_PER_OPERATION; i++) {
        const c: Case = { what: '', method: method.toUpperCase(), url: '', headers: {} };
        const kind = rnd.int(bodySchema ? 9 : 5);
        // Path parameters: a known id, or (in the bad-id case) something that is not one.
        let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
          const schema = params.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
          if (kind === 0) return rnd.pick(badIds).replace(/[^%]/g, (ch) => encodeURIComponent(ch));
          return encode(String(sample(schema, ids, rnd)));
        });
        const query: Record<string, string> = { ...validQuery };
        if (kind === 1) {
          for (const p of params.filter((p) => p.in === 'query')) query[p.name] = String(rnd.pick(ODD_VALUES)).slice(0, 2000);
          query[rnd.pick(['unexpected', 'limit', 'all', 'start_date'])] = rnd.pick(['-1', 'NaN', '1e999', 'true', '', '9999-12-31', '%', '[]']);
        }
        const qs = Object.entries(query).map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
        if (qs) url += `?${qs}`;
        c.url = url;
        c.headers.cookie = streaming ? rnd.pick(cookies.slice(3)) : kind === 2 ? rnd.pick(cookies.slice(3)) : admin;
        if (kind === 3) c.headers['if-match'] = rnd.pick(['"abc"', 'W/"-1"', '*', '"99999999999999999999"', '']);
        if (kind === 4) c.headers['idempotency-key'] = rnd.pick(['', ' ', 'k'.repeat(300), 'ünïcode', 'fuzz-key']);
        if (bodySchema) {
          c.headers['content-type'] = 'application/json';
          if (kind === 5) c.payload = JSON.stringify(spoil(validBody as Json, rnd));
          else if (kind === 6) c.payload = rnd.pick([deeplyNested(20_000), '{"a":' + '"x"'.repeat(1) + ',', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), '', 'null', '[]', '"text"']);
          else if (kind === 7) {
            c.payload = JSON.stringify(validBody);
            c.headers['content-type'] = rnd.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data; boundary=x']);
          } else if (kind === 8) c.payload = JSON.stringify(spoil(spoil(validBody as Json, rnd), rnd));
          else c.payload = JSON.stringify(validBody);
        }
        c.what = `${c.method} ${path} #${i} (kind ${kind})`;
        if (c.method === 'POST' && path === '/auth/login') c.headers['x-fuzz'] = '1';
        requests++;
        const began = Date.now();
        const res = await h.app.inject({ method: c.method as 'GET', url: c.url, headers: c.headers, ...(c.payload !== undefined ? { payload: c.payload } : {}), remoteAddress: `10.${i}.${requests % 250}.1` });
        if (process.env.COMANDA_FUZZ_DEBUG && Date.now() - began > 500) t.comment(`slow: ${c.what} ${Date.now() - began} ms → ${res.statusCode} ${res.body.slice(0, 200)}`);
        // Logout and refresh end or rotate the session the fuzzer uses: sign in again.
        if (path.startsWith('/auth/') || path === '/wallet/logout') admin = await signIn();
        check(t, op, c.what, res, { url: c.url, headers: c.headers, payload: String(c.payload ?? '').slice(0, 300) });
      }
    }
  }
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.ok(statuses.size >= 6, 'the inputs reached many different answers, not one wall of 401s');
  t.ok(requests >= Object.keys(doc.paths).length * CASES_PER_OPERATION, `${requests} requests over ${Object.keys(doc.paths).length} paths (seed ${SEED})`);
  // The admin survives the storm: nothing the fuzzer sent locked out or broke the restaurant.
  const res = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { name: ADMIN.name, pin: ADMIN.pin } });
  t.equal(res.statusCode, 200);
});
