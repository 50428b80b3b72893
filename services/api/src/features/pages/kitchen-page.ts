import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** packages/pos/dist, the same from src/features/pages and dist/features/pages: the kitchen display is a page of the POS's build. */
const POS = fileURLToPath(new URL('../../../../../packages/pos/dist/', import.meta.url));

/**
 * The kitchen display: `kitchen.html` of the POS's build (Preact, the typed client), public like /pos
 * (it holds nothing; everything it shows comes from the API after the cook signs in).
 */
export default async function kitchenPage(fastify: FastifyInstance) {
  if (!existsSync(`${POS}kitchen.html`)) {
    fastify.get('/kitchen', { schema: { hide: true } }, (_request, reply) =>
      reply.code(404).send({ message: 'The kitchen display is not built: npm run build (npm start builds it)' }));
    return;
  }
  // Hashed file names, kept a year, as /pos's: the page asks for its scripts under /kitchen/assets/.
  await fastify.register(fastifyStatic, { root: `${POS}assets`, prefix: '/kitchen/assets/', index: false, immutable: true, maxAge: '365d' });
  // The page itself is asked again every time (no-cache: sendFile would give it the assets' year).
  fastify.get('/kitchen', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('kitchen.html', POS, { cacheControl: false }));
}
