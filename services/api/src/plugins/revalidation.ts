import { randomBytes } from 'node:crypto';
import type { ReadStore } from '@comanda/read-store';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The read-model collections a GET's answer is made from, and nothing else (not the caller, the
     * clock or a header): its answer carries an ETag that changes when one of them does, and a client
     * holding it is answered 304.
     */
    answerFrom?: readonly string[];
  }
}

export interface RevalidationOptions {
  readStore: Pick<ReadStore, 'generation' | 'getCheckpoint'>;
}

/** Every answer with an ETag is the client's alone to keep, and asked again before each use. */
export const REVALIDATE = 'private, no-cache';

const tags = new WeakMap<FastifyRequest, string>();

/**
 * HTTP revalidation for the GETs answered from read models (`config.answerFrom`): a strong ETag made
 * from what the answer depends on, computed after the route's authorisation and before its handler, so
 * a request whose `If-None-Match` holds it is answered `304` without reading or building anything.
 * A polling tablet then costs a hook and a few header bytes while nothing it shows has changed.
 *
 * What the tag is made of: where the read store is written by this process alone (memory, SQLite:
 * `ReadStore.generation`), the generation of each collection the route reads, with a token of this
 * process's start (generations restart from 0); where it is shared (PostgreSQL, MongoDB, written by the
 * projector), the projector's checkpoint, which moves with every event it applies (coarser, and the same
 * on every replica). The tag is taken before the handler reads, so an answer is never newer than a tag
 * that says it is older: a write in between only costs the next request a full answer.
 *
 * A route that sets its own ETag (a document's version, for If-Match) keeps it. Only 200s and 204s (an
 * empty list) keep the tag; anything else goes out without it (and `no-store`, as the security plugin
 * gives staff answers).
 */
export default fp(async function revalidation(app: FastifyInstance, options: RevalidationOptions) {
  const store = options.readStore;
  const started = randomBytes(6).toString('base64url');
  const tagOf: (from: readonly string[]) => Promise<string> | string = store.generation
    ? (from) => `"${started}.${from.map((name) => store.generation!(name)).join('.')}"`
    : async () => `"p${(await store.getCheckpoint('projector')) ?? 'none'}"`;

  const check: preHandlerHookHandler = async function revalidate(request: FastifyRequest, reply: FastifyReply) {
    const tag = await tagOf(request.routeOptions.config.answerFrom ?? []);
    tags.set(request, tag);
    reply.header('cache-control', REVALIDATE);
    if (matches(request.headers['if-none-match'], tag)) return reply.code(304).header('etag', tag).send();
  };
  const stamp: onSendHookHandler = function stampAnswer(request, reply, payload, done) {
    const tag = tags.get(request);
    if (tag === undefined || reply.statusCode === 304) return done(null, payload);
    if (reply.statusCode !== 200 && reply.statusCode !== 204) {
      reply.removeHeader('etag');
      reply.header('cache-control', 'no-store');
    } else if (!reply.hasHeader('etag')) {
      reply.header('etag', tag);
    }
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.answerFrom || route.method !== 'GET') return;
    const handlers = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...handlers, check];
    const sends = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...sends, stamp];
  });
});

/** `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags compared weakly (a `W/` prefix ignored). */
export function matches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag);
}
