import { BASE_CURRENCY } from '@comanda/domain';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendJsonString } from '../http/replies.js';

export const GREETING = 'Welcome to the Comanda POS API';

/** Routes open to everyone: greeting, base currency, health. */
export default async function generalRoutes(app: FastifyInstance) {
  app.get('/', {
    schema: { tags: ['general'], summary: 'Greeting', response: { 200: Type.Literal(GREETING, { description: 'A fixed greeting (bare JSON string)' }) } },
  }, async (_request, reply) => sendJsonString(reply, 200, GREETING));

  app.get('/base-currency', {
    schema: {
      tags: ['general'],
      summary: 'The base currency of the restaurant',
      description: 'MXN, USD and BTC have fixed ids on every installation; MXN is the base currency.',
      response: { 200: Type.Object({ currency_id: Type.String({ format: 'uuid' }) }) },
    },
  }, async () => ({ currency_id: BASE_CURRENCY.id }));

  app.get('/health', {
    schema: {
      tags: ['general'],
      summary: 'Liveness and readiness of each adapter',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), checks: Type.Record(Type.String(), Type.String()) }),
        503: Type.Object({ status: Type.Literal('unavailable'), checks: Type.Record(Type.String(), Type.String()) }),
      },
    },
  }, async (_request, reply) => {
    const results = await Promise.all(
      app.deps.health.map(async (h) => {
        try {
          return [h.name, await h.check()] as const;
        } catch (error) {
          return [h.name, `down: ${(error as Error).message}`] as const;
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const ok = results.every(([, s]) => s === 'up' || s === 'live');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  });
}
