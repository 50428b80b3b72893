import type { FastifyInstance } from 'fastify';
import { POS_BUILD, builtPage } from './built-page.js';

/**
 * The POS screens (waiters' tablets, the cashier): a built single-page app whose screens live in the
 * URL's hash, so /pos is the only page.
 */
export default async function posPage(fastify: FastifyInstance) {
  if (!(await builtPage(fastify, '/pos', 'index.html', 'The POS screens are'))) return;
  // The service worker that keeps the app on the tablet: asked again at every visit (a new build, a
  // new worker), and allowed to look after /pos itself, not only what is under /pos/.
  fastify.get('/pos/sw.js', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/pos').type('text/javascript; charset=utf-8').sendFile('sw.js', POS_BUILD, { cacheControl: false }));
}
