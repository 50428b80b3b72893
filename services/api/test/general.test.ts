import t from 'tap';
import { BASE_CURRENCY, DomainError, conflict, notFound, preconditionFailed, validationFailed } from '@comanda/domain';
import { Type } from 'typebox';
import { GREETING } from '../src/index.js';
import { testApp } from './harness.js';

t.test('GET / answers the greeting as a JSON string', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const res = await app.inject({ method: 'GET', url: '/' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  t.equal(res.body, JSON.stringify(GREETING));
});

t.test('GET /base-currency answers the fixed MXN id', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const res = await app.inject({ method: 'GET', url: '/base-currency' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { currency_id: BASE_CURRENCY.id });
});

t.test('/swagger works under the Content-Security-Policy: every script and style it loads is same-origin', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const page = await app.inject({ method: 'GET', url: '/swagger/' });
  t.equal(page.statusCode, 200);
  const csp = String(page.headers['content-security-policy']);
  t.match(csp, /script-src 'self'/);
  t.match(csp, /frame-ancestors 'none'/);
  t.equal(page.headers['x-content-type-options'], 'nosniff');
  t.equal(page.headers['x-frame-options'], 'DENY');
  t.notMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>\s*\S/, 'no inline script (the CSP would block it)');
  t.notMatch(page.body, /<style/, 'no inline style');
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  t.ok(assets.length >= 5);
  for (const asset of assets) {
    t.notMatch(asset, /^(https?:)?\/\//, `${asset} is same-origin`);
    const res = await app.inject({ method: 'GET', url: new URL(asset, 'http://x/swagger/').pathname });
    t.equal(res.statusCode, 200, `${asset} loads`);
  }
  const init = await app.inject({ method: 'GET', url: '/swagger/static/swagger-initializer.js' });
  t.match(init.body, /url: '\.\/json'|json/, 'the UI reads the document from this origin');
});

t.test('security headers: helmet\'s set on every answer, JSON and pages alike', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const set = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'cross-origin-resource-policy': 'same-origin', 'referrer-policy': 'no-referrer', 'cross-origin-opener-policy': 'same-origin' };
  for (const url of ['/', '/no-such-path', '/users', '/swagger/', '/swagger/static/swagger-initializer.js', '/g/x', '/t/x']) {
    const res = await app.inject({ method: 'GET', url });
    t.match(res.headers, set, `${url} (${res.statusCode})`);
    t.match(String(res.headers['content-security-policy']), /^default-src 'self';.*frame-ancestors 'none'.*script-src 'self'/, `${url}: the CSP`);
    t.notOk('strict-transport-security' in res.headers, `${url}: no HSTS (the TLS proxy's)`);
  }
});

t.test('GET /swagger serves the UI and /swagger/json the OpenAPI document', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const ui = await app.inject({ method: 'GET', url: '/swagger' });
  t.equal(ui.statusCode, 200);
  t.match(ui.headers['content-type'], /text\/html/);
  t.match(ui.body, /swagger-ui/i);
  const doc = await app.inject({ method: 'GET', url: '/swagger/json' });
  t.equal(doc.statusCode, 200);
  const spec = doc.json();
  t.equal(spec.openapi, '3.1.0');
  t.ok(spec.paths['/base-currency'].get.responses['200']);
  t.ok(spec.paths['/health'].get.responses['503']);
});

t.test('GET /health reports each check; a failing one makes it 503', async (t) => {
  const { app, close, projector } = await testApp();
  t.teardown(close);
  const ok = await app.inject({ method: 'GET', url: '/health' });
  t.equal(ok.statusCode, 200);
  t.same(ok.json(), { status: 'ok', checks: { projector: 'live' } });
  await projector.stop();
  const down = await app.inject({ method: 'GET', url: '/health' });
  t.equal(down.statusCode, 503);
  t.same(down.json().checks, { projector: 'stopped' });
});

t.test('errors map to the contract', async (t) => {
  const fail = (error: unknown) => async () => {
    throw error;
  };
  const { app, close } = await testApp({}, {}, (app) => {
  app.get('/err/not-found', fail(notFound()));
  app.get('/err/conflict', fail(conflict('Table has an active order', { table_id: 'x' })));
  app.get('/err/precondition', fail(preconditionFailed()));
  app.get('/err/validation', fail(validationFailed([{ field: 'price', message: 'must be positive' }])));
  app.get('/err/forbidden', fail(new DomainError('forbidden', 'Unauthorized API access')));
  app.get('/err/boom', fail(new Error('secret internals at /srv/db')));
  app.get('/err/:id', { schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) } }, async () => 'x');
  app.post('/err/body', { schema: { body: Type.Object({ name: Type.String({ minLength: 1 }), price: Type.Number() }) } }, async () => 'x');
  });
  t.teardown(close);

  const get = (url: string) => app.inject({ method: 'GET', url });
  let res = await get('/err/not-found');
  t.equal(res.statusCode, 404);
  t.equal(res.body, '"Resource not found"');
  t.match(res.headers['content-type'], /application\/json/);
  res = await get('/err/conflict');
  t.equal(res.statusCode, 409);
  t.same(res.json(), { message: 'Table has an active order', table_id: 'x' });
  t.equal((await get('/err/precondition')).statusCode, 412);
  res = await get('/err/validation');
  t.same([res.statusCode, res.json()], [400, { message: 'Validation failed', errors: [{ field: 'price', message: 'must be positive' }] }]);
  res = await get('/err/forbidden');
  t.same([res.statusCode, res.json()], [403, { message: 'Unauthorized API access' }]);
  res = await get('/err/boom');
  t.same([res.statusCode, res.json()], [500, { message: 'Internal server error' }]);
  res = await get('/err/not-a-uuid');
  t.same([res.statusCode, res.body], [400, '"Missing or malformed ID"']);
  res = await get('/nowhere');
  t.same([res.statusCode, res.json()], [404, { message: 'Route GET /nowhere not found' }]);

  const post = (payload: string) => app.inject({ method: 'POST', url: '/err/body', payload, headers: { 'content-type': 'application/json' } });
  res = await post('{"name": ');
  t.same([res.statusCode, res.json().message], [400, 'Validation failed'], 'malformed JSON is a 400, not a 500');
  res = await post('{"price": "cheap"}');
  t.equal(res.statusCode, 400);
  t.same(res.json().errors.map((e: { field: string }) => e.field).sort(), ['name', 'price']);
  res = await post(JSON.stringify({ name: 'x', price: 1, pad: 'x'.repeat(1024 * 1024) }));
  t.equal(res.statusCode, 413);
  t.type(res.json().message, 'string');
});

t.test('secrets in headers and bodies never reach the log', async (t) => {
  const { app, close, logs } = await testApp({ LOG_LEVEL: 'trace' }, {}, (app) =>
    app.post('/t/echo', async (request, reply) => {
      request.log.info({ body: request.body, headers: request.headers }, 'got body');
      reply.header('set-cookie', 'refreshToken=SECRET-SET-COOKIE');
      request.log.info({ answer: { headers: reply.getHeaders() } }, 'answer headers');
      return { ok: true };
    }),
  );
  t.teardown(close);
  await app.inject({
    method: 'POST', url: '/t/echo',
    headers: { cookie: 'accessToken=SECRET-TOKEN-1', authorization: 'Basic U0VDUkVULUJBU0lD', 'x-node-signature': 'SECRET-SIGNATURE', 'user-agent': 'visible-agent' },
    payload: {
      pin: '987654', password: 'SECRET-PASSWORD', nested: { secret: 'SECRET-NESTED', deeper: [{ webhookSecret: 'SECRET-DEEP' }, { Password: 'SECRET-CASE' }] },
      note: 'visible',
    },
  });
  const all = logs.join('');
  t.ok(all.includes('got body') && all.includes('visible'), 'the body was logged, fields that are not secret included');
  t.ok(all.includes('visible-agent') && all.includes('answer headers'), 'the headers were logged, those that are not secret included');
  for (const secret of ['SECRET-TOKEN-1', 'SECRET-SIGNATURE', 'SECRET-SET-COOKIE', 'U0VDUkVULUJBU0lD', '987654', 'SECRET-PASSWORD', 'SECRET-NESTED', 'SECRET-DEEP', 'SECRET-CASE']) {
    t.notOk(all.includes(secret), `${secret} absent`);
  }
});

t.test('Fastify logs each write, failure and slow read once, as it is answered; reads and arrivals at debug; nothing at warn', async (t) => {
  const { app, logs, close } = await testApp({}, {}, (app) => {
    app.get('/test/log', async (request) => {
      request.log.warn({ detail: 1 }, 'from the route');
      return 'logged';
    });
    app.post('/test/write', async (_request, reply) => reply.code(201).send({ ok: true }));
    app.get('/test/slow', async () => new Promise((resolve) => setTimeout(() => resolve('slow'), 1_100)));
  });
  t.teardown(close);
  const linesOf = async (request: Parameters<typeof app.inject>[0]) => {
    const before = logs.length;
    await app.inject(request);
    return logs.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  t.same(await linesOf({ method: 'GET', url: '/' }), [], 'a read answered well and in time: no line at info');
  const write = await linesOf({ method: 'POST', url: '/test/write?q="quoted"', remoteAddress: '10.0.0.7', payload: {} });
  t.equal(write.length, 1, 'one line for the write');
  t.match(write[0], { level: 30, msg: 'request completed', req: { method: 'POST', url: '/test/write?q=%22quoted%22', remoteAddress: '10.0.0.7' }, res: { statusCode: 201 } });
  t.ok(typeof write[0]?.responseTime === 'number' && typeof write[0].reqId === 'string');
  t.match(await linesOf({ method: 'GET', url: '/users' }), [{ level: 30, msg: 'request completed', res: { statusCode: 401 } }], 'a refused read');
  t.match(await linesOf({ method: 'GET', url: '/test/slow' }), [{ level: 30, msg: 'request completed', req: { url: '/test/slow' } }], 'a slow read');
  const own = await linesOf({ method: 'GET', url: '/test/log' });
  t.match(own, [{ level: 40, detail: 1, reqId: String, msg: 'from the route' }], 'a route\'s line names its request');

  const chatty = await testApp({ LOG_LEVEL: 'debug' });
  t.teardown(chatty.close);
  await chatty.app.inject({ method: 'GET', url: '/' });
  const debug = chatty.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(debug.find((l) => l.msg === 'incoming request'), { level: 20, req: { method: 'GET', url: '/' } }, 'at debug, each request as it comes');
  t.match(debug.find((l) => l.msg === 'request completed'), { level: 20, res: { statusCode: 200 } }, 'and each read as it is answered');

  const quiet = await testApp({ LOG_LEVEL: 'warn' });
  t.teardown(quiet.close);
  await quiet.app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'nobody', pin: '0000' } });
  t.notOk(quiet.logs.some((l) => l.includes('request completed')), 'nothing at warn');
});
