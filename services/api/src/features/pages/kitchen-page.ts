import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';

/** services/api/public, the same from src/routes and dist/routes. */
const PUBLIC = fileURLToPath(new URL('../../../public/', import.meta.url));

/**
 * The kitchen display: static HTML, CSS and JavaScript, no build step. The page itself is public (it
 * holds nothing); everything it shows comes from the API after the cook logs in.
 */
export default async function kitchenPage(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(fastifyStatic, { root: `${PUBLIC}kitchen`, prefix: '/kitchen/assets/', index: false, cacheControl: true, maxAge: 0 });
  app.get('/kitchen', { schema: { hide: true } }, (_request, reply) => reply.type('text/html; charset=utf-8').sendFile('index.html'));
}
