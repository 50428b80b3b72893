import { createHash, timingSafeEqual } from 'node:crypto';
import { Metrics } from '@comanda/metrics';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Endpoints whose 401 is a refused password and whose 429 is the lockout. */
const LOGINS: Record<string, string> = { '/auth/login': 'login', '/wallet/auth': 'wallet' };

/** The node's payment webhook (wallet bridge): its answer says what became of it. */
const WEBHOOK_ROUTE = '/webhooks/node';
const webhookOutcome = (status: number) => (status === 200 ? 'accepted' : status === 401 ? 'bad_signature' : status === 400 ? 'malformed' : 'failed');

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Counts every answer by route pattern and status (one label per route, never per id) once it is sent,
 * and serves `GET /metrics` to a scraper holding COMANDA_METRICS_TOKEN; without a token configured the
 * route does not exist (404), so figures about the restaurant never leak by default.
 */
export default fp(async function metricsPlugin(app: FastifyInstance, deps: AppDeps) {
  const metrics = deps.metrics ?? new Metrics({ processMetrics: false });
  app.decorate('metrics', metrics);

  // A callback hook, not an async one: no promise per request for work that never waits.
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.answers.record(request.method, route, status, reply.elapsedTime / 1000);
    const login = LOGINS[route];
    if (login && status === 401) metrics.loginFailures.inc({ endpoint: login });
    if (login && status === 429) metrics.loginThrottled.inc({ endpoint: login });
    if (route === WEBHOOK_ROUTE) metrics.webhooks.inc({ outcome: webhookOutcome(status) });
    done();
  });

  const token = deps.config.metricsToken;
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = digest(request.headers.authorization ?? '');
    if (!timingSafeEqual(given, expected)) return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
    return reply.type(metrics.contentType).send(await metrics.render());
  });
});
