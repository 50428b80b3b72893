import { randomBytes } from 'node:crypto';
import type { ReadStore } from '@comanda/read-store';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { hookList } from '../http/route-hooks.js';
import { NO_STORE } from './security.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The ETag the answer is made at (set before the handler on routes with `answerFrom`). */
    answerTag?: string;
    /** Its tag was already compared on arrival (and found stale, or it would have been answered 304). */
    revalidated: boolean;
    /**
     * Answered with the kept answer (not kept again). A field, not a WeakSet of requests: adding every
     * request to a weak collection cost the most of any function on a kept answer's path.
     */
    sentKept: boolean;
  }
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
  /** The checkpoints as this replica follows them (announced, not read per request), when it does. */
  checkpoints?: { position(name: string): Promise<bigint | null> };
}

/** Every answer with an ETag is the client's alone to keep, and asked again before each use. */
export const REVALIDATE = 'private, no-cache';


/** An answer kept with the tag it was made at, and the headers its route set (security's come again). */
interface Kept {
  tag: string;
  body: string;
  headers: Record<string, string>;
}
const ROUTE_HEADERS = ['content-type', 'x-total-count', 'link', 'etag'];
const KEEP_ANSWERS = 500;
/** Larger answers (a whole year `?all=true`) are made each time rather than kept. */
const KEEP_BYTES = 512 * 1024;

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
 *
 * A client without the tag (a tablet's first poll, another tablet) is sent the answer last made for the
 * URL while its tag is still current, through Fastify's own send and hooks like any answer: reading
 * and serialising a list is most of a GET's work, and the tag already says whether it would change.
 * 200s without a cookie only, at most 500 answers of at most 512 kB (the oldest dropped first), and
 * only where the store has generations.
 */
export default fp(async function revalidation(app: FastifyInstance, options: RevalidationOptions) {
  const store = options.readStore;
  const { checkpoints } = options;
  const projector = checkpoints ? () => checkpoints.position('projector') : () => store.getCheckpoint('projector');
  const started = randomBytes(6).toString('base64url');
  const generation = store.generation?.bind(store);
  // Each route's tag, remade only when a generation it is made of has moved (most polls find none has).
  const tagFor = (from: readonly string[]): (() => Promise<string> | string) => {
    if (!generation) return async () => `"p${(await projector()) ?? 'none'}"`;
    const seen = from.map(() => -1);
    let tag = '';
    return () => {
      let moved = false;
      for (let i = 0; i < from.length; i++) {
        const now = generation(from[i]!);
        if (now !== seen[i]) {
          seen[i] = now;
          moved = true;
        }
      }
      if (moved || tag === '') tag = `"${started}.${seen.join('.')}"`;
      return tag;
    };
  };

  // Only where this process alone writes the store: a shared one's checkpoint and documents may be
  // seen moving in either order, and an answer kept under a tag it is older than would be sent on.
  const canKeep = store.generation !== undefined;
  const kept = new Map<string, Kept>();
  const keep = (url: string, answer: Kept) => {
    kept.delete(url);
    kept.set(url, answer);
    if (kept.size > KEEP_ANSWERS) kept.delete(kept.keys().next().value!);
  };

  // What a request is answered once its route's current tag is known: 304, the kept answer, or on to the handler.
  const decide = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void, tag: string) => {
    request.answerTag = tag;
    reply.header('cache-control', REVALIDATE);
    if (matches(request.headers['if-none-match'], tag)) return void reply.code(304).header('etag', tag).send();
    const hit = canKeep ? kept.get(request.url) : undefined;
    if (hit?.tag === tag) {
      request.sentKept = true;
      return void reply.headers(hit.headers).send(hit.body);
    }
    done();
  };
  // One check per route, its collections bound when the route is added: the request's routeOptions
  // (an object built on each read) is never read on this path, and a tag known at once (the local
  // stores' generations) answers without a promise.
  const checkFor = (from: readonly string[]): preHandlerHookHandler => {
    const tagOf = tagFor(from);
    return function revalidate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
      const tag = tagOf();
      if (typeof tag === 'string') decide(request, reply, done, tag);
      else tag.then((known) => decide(request, reply, done, known), done);
    };
  };
  const stamp: onSendHookHandler = function stampAnswer(request, reply, payload, done) {
    const tag = request.answerTag;
    if (tag === undefined || reply.statusCode === 304) return done(null, payload);
    if (reply.statusCode !== 200 && reply.statusCode !== 204) {
      reply.removeHeader('etag');
      reply.header('cache-control', NO_STORE);
    } else if (!reply.hasHeader('etag')) {
      reply.header('etag', tag);
    }
    if (canKeep && reply.statusCode === 200 && typeof payload === 'string' && payload.length <= KEEP_BYTES && !request.sentKept && !reply.hasHeader('set-cookie')) {
      keep(request.url, { tag, body: payload, headers: routeHeaders(reply) });
    }
    done(null, payload);
  };

  app.decorateRequest('answerTag', undefined);
  app.decorateRequest('revalidated', false);
  app.decorateRequest('sentKept', false);
  app.addHook('onRoute', (route) => {
    if (!route.config?.answerFrom || route.method !== 'GET') return;
    const check = checkFor(route.config.answerFrom);
    // Where validation could refuse nothing else (no header rules; a query validator that takes no
    // query), a request without a query string whose path parameters the route's own validator
    // accepts is decided as soon as it is authorised, as @fastify/caching does: a polling tablet's 304 then skips
    // parsing and validation. Anything else is decided after validation, so a malformed request is a
    // 400 whatever tag it holds.
    if (decidedOnArrival(route)) {
      const hasParams = route.schema?.params !== undefined;
      // Whether the route's query validator takes no query at all, asked of the validator itself (a
      // required parameter may hide in an allOf) on the route's first request, once.
      let takesNoQuery: boolean | undefined;
      route.onRequest = [...hookList(route.onRequest), function revalidateOnArrival(request, reply, done) {
        if (request.url.includes('?')) return done();
        takesNoQuery ??= request.getValidationFunction('querystring')?.({}) !== false;
        if (!takesNoQuery) return done();
        if (hasParams && request.getValidationFunction('params')?.(request.params) !== true) return done();
        request.revalidated = true;
        check.call(this, request, reply, done);
      }];
    }
    route.preHandler = [...hookList(route.preHandler), function revalidateValidated(request, reply, done) {
      if (request.revalidated) return done();
      check.call(this, request, reply, done);
    }];
    route.onSend = [...hookList(route.onSend), stamp];
  });
});

/** Whether a request to the route without a query string, its path parameters valid, could be refused by validation: if not, it is revalidated on arrival. */
function decidedOnArrival(route: RouteOptions): boolean {
  const schema = route.schema;
  // A path parameter the route does not validate could be anything: decided after validation.
  if ((route.url.includes(':') && schema?.params === undefined) || route.url.includes('*')) return false;
  return schema?.headers === undefined;
}

/** The headers the route itself set on its answer, to send again with it. */
function routeHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ROUTE_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/** `If-None-Match` as RFC 9110 reads it: `*`, or a list of tags compared weakly (a `W/` prefix ignored). */
export function matches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  // A tablet sends back the one tag it holds: compared as is before the list is parsed.
  if (header === tag) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((given) => given.trim().replace(/^W\//, '') === tag);
}
