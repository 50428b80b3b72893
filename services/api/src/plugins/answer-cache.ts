import type { ReadStore } from '@comanda/read-store';
import type { FastifyInstance, FastifyRequest, RouteOptions, onRequestHookHandler, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { answerBeforeRouting, type Completion } from '../http/answers-before-routing.js';
import { Answers, type CachedRoute, MAX_ANSWER_BYTES, type Stamp, sentHeaders } from '../http/answers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The read-model collections a GET's answer is made from, and nothing else (not the user, the
     * clock or a header): its answer may be cached while none of them has changed.
     */
    answerFrom?: readonly string[];
  }
}

export interface AnswerCacheOptions {
  readStore: Pick<ReadStore, 'generation'>;
  /** How answers sent before routing are completed; without it every hit goes through Fastify. */
  beforeRouting?: Completion;
}

const stamps = new WeakMap<FastifyRequest, Stamp>();

/**
 * Serialised answers of the GETs that declare `config.answerFrom`, by URL, each kept with the
 * generations of its collections read before the route ran: a later request for the same URL is
 * answered with the same bytes while no write to those collections has become visible since (the
 * projector's commit moves the generation on, so a POST that waited for its write is followed by a GET
 * that misses). Authorisation runs first on every request; only 200s are kept.
 *
 * Most hits are sent before Fastify routes the request (answers-before-routing.ts); the others, and
 * every request `inject` makes, are found by the route's lookup hook below.
 *
 * Only where the read store is written by this process alone (`ReadStore.generation`: memory and
 * SQLite, the standalone shape); an API reading a shared store other processes write caches nothing.
 */
export default fp(async function answerCache(app: FastifyInstance, options: AnswerCacheOptions) {
  const store = options.readStore;
  if (!store.generation) return;
  const generation = store.generation.bind(store);
  const answers = new Answers();
  const stampOf = (from: readonly string[]): Stamp => (from.length === 1 ? generation(from[0]!) : from.map(generation).join('.'));

  // The lookup runs as the route's last onRequest hook, right after its authorisation: a hit skips
  // parsing, validation and the handler. Only answers to this URL that passed validation were kept, so
  // validating the same URL again could only agree.
  // A hit is written straight to the socket (the reply hijacked): the onSend hooks ran on the miss
  // and their headers were kept with it, and every one of them depends on the answer alone for a
  // signed-in request (security's set, the signed-in no-store; never a cookie, see `keep`). Passing
  // the bytes through Fastify's send again (setting each header, three onSend hooks) was a fifth of a
  // hit's CPU. The answer still ends through Fastify's response listeners: logged and counted.
  const lookup = ({ from }: CachedRoute): onRequestHookHandler => function answerFromCache(request, reply, done) {
    const stamp = stampOf(from);
    const hit = answers.get(request.url);
    if (hit && hit.stamp === stamp) {
      reply.hijack();
      reply.raw.writeHead(200, hit.headers);
      reply.raw.end(hit.body);
      return;
    }
    stamps.set(request, stamp);
    done();
  };
  // Kept by the routes that may be cached only (an onSend of the route's own, so it runs after the
  // application's onSend hooks and sees their headers): every other answer goes out without passing
  // through it.
  const keep = (route: CachedRoute): onSendHookHandler => function keepAnswer(request, reply, payload, done) {
    const stamp = stamps.get(request);
    if (stamp === undefined || reply.statusCode !== 200 || typeof payload !== 'string' || payload.length > MAX_ANSWER_BYTES) return done(null, payload);
    const body = Buffer.from(payload);
    const headers = sentHeaders(reply.getHeaders(), body.length);
    if (headers) answers.set(request.url, { route, stamp, body, headers, used: false });
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const from = route.config?.answerFrom;
    if (!from || route.method !== 'GET') return;
    // A hit skips validation, which is sound only while the URL alone decides it.
    if (route.schema?.headers) throw new Error(`${route.url} validates headers, so its answer may not be cached by URL (answerFrom)`);
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const cached: CachedRoute = { url: route.url, from, beforeRouting: beforeRoutingOf(own, route) };
    route.onRequest = [...own, lookup(cached)];
    const sends = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...sends, keep(cached)];
  });

  // Who may be sent a route's answers before routing: only the authorisation can be done there, so a
  // route with any other hook of its own that a hit passes through (onRequest; onResponse, onTimeout
  // and onRequestAbort, which follow a request Fastify routed) is left to Fastify. Hooks a plugin adds
  // around its routes are not seen here: the test over the whole API checks that none exist.
  function beforeRoutingOf(own: readonly unknown[], route: RouteOptions): CachedRoute['beforeRouting'] {
    if (route.onResponse !== undefined || route.onTimeout !== undefined || route.onRequestAbort !== undefined) return undefined;
    if (own.length === 0) return null;
    return own.length === 1 && app.hasDecorator('permissionOf') ? app.permissionOf(own[0]) : undefined;
  }

  if (options.beforeRouting) {
    // Fastify marks itself closing a few steps of its close queue before this hook runs: in between,
    // a request on a kept-alive connection may still be sent a cached 200 (a correct answer; the
    // connection is closed with the server's idle ones) instead of Fastify's 503.
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    const admitsNow = app.hasDecorator('admitsNow') ? app.admitsNow.bind(app) : undefined;
    answerBeforeRouting(app.server, { answers, stampOf, admitsNow, closing: () => closing }, options.beforeRouting);
  }
});
