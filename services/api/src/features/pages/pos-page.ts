import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * packages/pos/dist, the same from src/features/pages and dist/features/pages. The screens are found by path, not as a
 * dependency: they are built on the typed client, whose types are generated from this API's document.
 */
const POS = fileURLToPath(new URL('../../../../../packages/pos/dist/', import.meta.url));

/**
 * The POS screens (waiters' tablets, the cashier): a built single-page app, public like /kitchen (it
 * holds nothing; everything it shows comes from the API after sign-in). Its screens live in the URL's
 * hash, so /pos is the only page.
 */
export default async function posPage(fastify: FastifyInstance) {
  if (!existsSync(`${POS}index.html`)) {
    fastify.get('/pos', { schema: { hide: true } }, (_request, reply) =>
      reply.code(404).send({ message: 'The POS screens are not built: npm run build (npm start builds them)' }));
    return;
  }
  // Hashed file names: an asset never changes under its name, so a tablet keeps it for a year.
  await fastify.register(fastifyStatic, { root: `${POS}assets`, prefix: '/pos/assets/', index: false, immutable: true, maxAge: '365d' });
  // The page itself is asked again every time (no-cache: sendFile would give it the assets' year).
  fastify.get('/pos', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', POS, { cacheControl: false }));
  // The service worker that keeps the app on the tablet: asked again at every visit (a new build, a
  // new worker), and allowed to look after /pos itself, not only what is under /pos/.
  fastify.get('/pos/sw.js', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/pos').type('text/javascript; charset=utf-8').sendFile('sw.js', POS, { cacheControl: false }));
}
