import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * packages/pos/dist, the same from src/features/pages and dist/features/pages. The screens are found by path, not as a
 * dependency: they are built on the typed client, whose types are generated from this API's document.
 */
export const POS_BUILD = fileURLToPath(new URL('../../../../../packages/pos/dist/', import.meta.url));

/**
 * One page of the POS's build at `path` (its scripts under `path/assets/`), public (it holds nothing;
 * everything it shows comes from the API after sign-in). Not built: a 404 saying how to build it, and false.
 */
export async function builtPage(fastify: FastifyInstance, path: string, file: string, what: string): Promise<boolean> {
  if (!existsSync(`${POS_BUILD}${file}`)) {
    fastify.get(path, { schema: { hide: true } }, (_request, reply) =>
      reply.code(404).send({ message: `${what} not built: npm run build (npm start builds it)` }));
    return false;
  }
  // Hashed file names: an asset never changes under its name, so a tablet keeps it for a year.
  await fastify.register(fastifyStatic, { root: `${POS_BUILD}assets`, prefix: `${path}/assets/`, index: false, immutable: true, maxAge: '365d' });
  // The page itself is asked again every time (no-cache: sendFile would give it the assets' year).
  fastify.get(path, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile(file, POS_BUILD, { cacheControl: false }));
  return true;
}
