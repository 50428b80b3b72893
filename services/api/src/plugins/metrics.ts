import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metrics, RouteAnswers } from '@comanda/metrics';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
 * Counts an answer by route pattern and status (one label per route, never per id) once it is sent:
 * what a route or the not-found handler answered, not the 400 Fastify sends itself for a URL it cannot
 * decode, nor the 503 of a server that is closing, nor a request its client abandoned.
 */
function countAnswer(metrics: Metrics, answers: RouteAnswers, route: string, status: number, elapsedMs: number): void {
  answers.record(status, elapsedMs / 1000);
  const login = LOGINS[route];
  if (login && status === 401) metrics.loginFailures.inc({ endpoint: login });
  if (login && status === 429) metrics.loginThrottled.inc({ endpoint: login });
  if (route === WEBHOOK_ROUTE) metrics.webhooks.inc({ outcome: webhookOutcome(status) });
}

/**
 * Serves `GET /metrics` to a scraper holding COMANDA_METRICS_TOKEN; without a token configured the
 * route does not exist (404), so figures about the restaurant never leak by default. The figures are
 * the app's `metrics` (answers counted by the onResponse hook above).
 */
export default fp(async function metricsPlugin(app: FastifyInstance, options: { metrics: Metrics; metricsToken: string | null }) {
  const { metrics } = options;
  app.decorate('metrics', metrics);
  // Each answer is counted under its route's pattern (never its URL, so one label per route); what
  // no route matched, under 'unmatched'.
  app.addHook('onResponse', (request, reply, done) => {
    const pattern = request.routeOptions.url ?? 'unmatched';
    countAnswer(metrics, metrics.answers.route(request.method, pattern), pattern, reply.statusCode, reply.elapsedTime);
    done();
  });

  const token = options.metricsToken;
  if (!token) return;
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = digest(request.headers.authorization ?? '');
    if (!timingSafeEqual(given, expected)) return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
    return reply.type(metrics.contentType).send(await metrics.render());
  });
});
