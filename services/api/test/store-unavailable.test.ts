import t from 'tap';
import { testApp } from './harness.js';

/** Issue 39, item 6: a store or the bus out of reach is a 503 with Retry-After; the driver's words stay in the log. */

const failures: Record<string, () => Error> = {
  'postgres-shutdown': () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  'postgres-connection': () => Object.assign(new Error('connection failure during authentication'), { code: '08006' }),
  'postgres-dropped': () => new Error('Connection terminated unexpectedly'),
  refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  'pool-aggregate': () => Object.assign(new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })]), { code: undefined }),
  nats: () => Object.assign(new Error('CONNECTION_CLOSED'), { name: 'NatsError', code: 'CONNECTION_CLOSED' }),
  mongo: () => Object.assign(new Error('Server selection timed out after 30000 ms'), { name: 'MongoServerSelectionError' }),
  wrapped: () => new Error('append failed', { cause: Object.assign(new Error('Connection terminated due to connection timeout'), { code: 'ETIMEDOUT' }) }),
};

t.test('store and bus failures answer 503 with Retry-After; anything else stays a 500', async (t) => {
  const h = await testApp({}, {}, (app) => {
    app.post('/test/fail/:kind', async (request) => {
      const kind = (request.params as { kind: string }).kind;
      throw failures[kind]?.() ?? new Error('a bug, not an outage');
    });
  });
  t.teardown(h.close);
  for (const [kind, make] of Object.entries(failures)) {
    const res = await h.app.inject({ method: 'POST', url: `/test/fail/${kind}` });
    t.equal(res.statusCode, 503, kind);
    t.equal(res.headers['retry-after'], '2');
    t.same(res.json(), { message: 'Service temporarily unavailable; try again' });
    t.notMatch(res.body, make().message, 'no driver text in the answer');
  }
  t.ok(h.logs.some((l) => l.includes('administrator command') && l.includes('answered 503')), 'the driver\'s message is in the log');
  const bug = await h.app.inject({ method: 'POST', url: '/test/fail/other' });
  t.same([bug.statusCode, bug.json()], [500, { message: 'Internal server error' }]);
});
