import t from 'tap';
import { testApp } from './harness.js';

/**
 * Every API route lives in one Fastify context, so every request and reply the hooks meet is of one
 * class whichever module answers it: a class per route module makes the code every request runs
 * (authorisation, revalidation, the answer tally) generic over all of them (docs/architecture.md).
 */
t.test('requests to every route module are of one request class and one reply class', async (t) => {
  const requestClasses = new Map<object, string[]>();
  const replyClasses = new Map<object, string[]>();
  const note = (classes: Map<object, string[]>, object: object, url: string) => {
    const proto = Object.getPrototypeOf(object) as object;
    classes.set(proto, [...(classes.get(proto) ?? []), url]);
  };
  const s = await testApp({}, {}, (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      note(requestClasses, request, request.url);
      note(replyClasses, reply, request.url);
      done();
    });
  });
  t.teardown(s.close);
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const admin = await s.as('admin');
  // One path or more of each route module a tablet, the kitchen or the owner reads.
  const paths = [
    '/', '/auth/me', '/users', '/orders', '/orders/status/pending', '/orders/none/dishes', '/categories', '/dishes', '/modifier-groups',
    '/tax-rates', '/spaces', '/tables', '/wallet/getinfo', '/wallet/payments/incoming', '/wallet/unmatched', '/tickets',
    '/tickets/none/receipt', '/shifts/current', '/currencies', '/currencies/rates', '/stations', '/kitchen/tickets', '/reports/sales',
  ];
  requestClasses.clear();
  replyClasses.clear();
  for (const path of paths) {
    const res = await fetch(base + path, { headers: { cookie: admin } });
    t.ok(res.status < 500, `${path} answered ${res.status}`);
  }
  t.equal(requestClasses.size, 1, `request classes: ${[...requestClasses.values()].map((urls) => urls.join(' ')).join(' | ')}`);
  t.equal(replyClasses.size, 1, `reply classes: ${[...replyClasses.values()].map((urls) => urls.join(' ')).join(' | ')}`);
});
