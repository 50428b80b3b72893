import { BASE_CURRENCY } from '@comanda/domain';
import { checkHealth } from '@comanda/runtime';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/replies.js';
import { unchanged } from '../../plugins/revalidation.js';

export const GREETING = 'Welcome to the Comanda POS API';
const GREETING_JSON = JSON.stringify(GREETING);
const GREETING_TAG = '"greeting"';

/** Routes open to everyone: greeting, base currency, health. */
export default async function generalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/', {
    config: { permission: 'anyone' },
    schema: { tags: ['general'], summary: 'Greeting', response: { 200: Type.Literal(GREETING, { description: 'A fixed greeting (bare JSON string)' }) } },
  }, (request, reply) => {
    // The tablets' ping: the answer never changes, so a client holding it is answered 304.
    if (!unchanged(request, reply, GREETING_TAG)) sendJsonText(reply, 200, GREETING_JSON);
  });

  app.get('/base-currency', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['general'],
      summary: 'The base currency of the restaurant',
      description: 'MXN, USD and BTC have fixed ids on every installation; MXN is the base currency.',
      response: { 200: Type.Object({ currency_id: Type.String({ format: 'uuid' }) }) },
    },
  }, () => ({ currency_id: BASE_CURRENCY.id }));

  const Checks = Type.Record(Type.String(), Type.String());
  /** Every part's state (the runtime's check: the same in every process). */
  const runChecks = () => checkHealth(app.deps.health);

  app.get('/health', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['general'],
      summary: 'Liveness and readiness of each adapter',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), checks: Checks }),
        503: Type.Object({ status: Type.Literal('unavailable'), checks: Checks }),
      },
    },
  }, async (_request, reply) => {
    const { ok, checks } = await runChecks();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });

  app.get('/health/live', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['general'],
      summary: 'The process is up (for a supervisor: restart it when this fails)',
      response: { 200: Type.Object({ status: Type.Literal('live') }) },
    },
  }, () => ({ status: 'live' as const }));

  app.get('/health/ready', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['general'],
      summary: 'Every part is ready: read models caught up, stores, bus and Lightning node reachable (for a load balancer)',
      response: {
        200: Type.Object({ status: Type.Literal('ready') }),
        503: Type.Object({ status: Type.Literal('not_ready'), waitingFor: Type.Array(Type.String()) }),
      },
    },
  }, async (_request, reply) => {
    const { ok, waitingFor } = await runChecks();
    if (ok) return { status: 'ready' as const };
    return reply.code(503).send({ status: 'not_ready', waitingFor });
  });
}
