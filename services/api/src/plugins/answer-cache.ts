import type { FastifyInstance, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The read-model collections a GET's answer is made from, and nothing else (not the user, the
     * clock or a header): its answer may be cached while none of them has changed.
     */
    answerFrom?: readonly string[];
  }
}

/**
 * What a cached answer restores: its body as sent, kept encoded (a hit then writes the bytes as they
 * are: encoding a 15–30 kB list string for every answer was a tenth of its CPU), and every header the
 * miss sent, in its order, as the flat list `writeHead` takes.
 */
interface Answer {
  stamp: Stamp;
  body: Buffer;
  headers: string[];
  /** Hit since the eviction sweep last passed it (a second chance: see `Answers`). */
  used: boolean;
}

/** The generations an answer was made at: the number itself for one collection, joined for several. */
type Stamp = number | string;

const MAX_ANSWERS = 1000;
/** Answers longer than this (a whole year `?all=true`) are computed each time rather than kept. */
const MAX_ANSWER_BYTES = 512 * 1024;
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Answers by URL, the least recently used dropped first, approximately (the CLOCK algorithm): a hit
 * only marks its answer used, and the sweep on an insert over the bounds moves a used answer to the
 * back once instead of dropping it. Moving the answer to the back of the Map on every hit (a delete
 * and a set) cost a hit about a microsecond.
 */
class Answers {
  private readonly map = new Map<string, Answer>();
  private bytes = 0;

  get(key: string): Answer | undefined {
    const a = this.map.get(key);
    if (a) a.used = true;
    return a;
  }

  set(key: string, a: Answer): void {
    this.drop(key);
    this.map.set(key, a);
    this.bytes += a.body.length;
    while (this.map.size > MAX_ANSWERS || this.bytes > MAX_BYTES) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      if (oldest.used) {
        oldest.used = false;
        this.map.delete(oldestKey);
        this.map.set(oldestKey, oldest);
      } else {
        this.drop(oldestKey);
      }
    }
  }

  private drop(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.bytes -= old.body.length;
  }
}

const stamps = new WeakMap<FastifyRequest, Stamp>();

/**
 * Serialised answers of the GETs that declare `config.answerFrom`, by URL, each kept with the
 * generations of its collections read before the route ran: a later request for the same URL is
 * answered with the same bytes while no write to those collections has become visible since (the
 * projector's commit moves the generation on, so a POST that waited for its write is followed by a GET
 * that misses). Authorisation runs first on every request; only 200s are kept.
 *
 * Only where the read store is written by this process alone (`ReadStore.generation`: memory and
 * SQLite, the standalone shape); an API reading a shared store other processes write caches nothing.
 */
export default fp(async function answerCache(app: FastifyInstance, deps: AppDeps) {
  const store = deps.readStore;
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
  const lookup = (from: readonly string[]): onRequestHookHandler => function answerFromCache(request, reply, done) {
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
  const keep: onSendHookHandler = function keepAnswer(request, reply, payload, done) {
    const stamp = stamps.get(request);
    if (stamp === undefined || reply.statusCode !== 200 || typeof payload !== 'string' || payload.length > MAX_ANSWER_BYTES) return done(null, payload);
    const body = Buffer.from(payload);
    const headers = sentHeaders(reply.getHeaders(), body.length);
    if (headers) answers.set(request.url, { stamp, body, headers, used: false });
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const from = route.config?.answerFrom;
    if (!from || route.method !== 'GET') return;
    // A hit skips validation, which is sound only while the URL alone decides it.
    if (route.schema?.headers) throw new Error(`${route.url} validates headers, so its answer may not be cached by URL (answerFrom)`);
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, lookup(from)];
    const sends = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...sends, keep];
  });
});

/**
 * The headers an answer goes out with, as `[name, value, …]` with its Content-Length last (where
 * Fastify writes it); none when the answer sets a cookie, which belongs to one request, not to the URL.
 */
function sentHeaders(headers: Record<string, unknown>, length: number): string[] | undefined {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'set-cookie' || Array.isArray(value)) return undefined;
    if (name !== 'content-length' && value !== undefined) flat.push(name, String(value));
  }
  flat.push('content-length', String(length));
  return flat;
}
