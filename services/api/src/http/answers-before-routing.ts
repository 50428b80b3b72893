import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Permission } from '@comanda/domain';
import type { Answers, Stamp } from './answers.js';

/** What sending cached answers before routing reads from the answer cache. */
export interface CachedAnswers {
  answers: Answers;
  /** The generations of the collections, as an answer made now would be stamped. */
  stampOf(from: readonly string[]): Stamp;
  /** The auth plugin's `admitsNow`; without it only answers open to everyone are sent before routing. */
  admitsNow?(cookieHeader: string | undefined, permission: Permission): boolean;
  /** The app is closing: every request goes to Fastify, which answers 503. */
  closing(): boolean;
}

/** How a request answered before routing is numbered, addressed and completed like Fastify's. */
export interface Completion {
  /**
   * The next request id, from the sequence Fastify's requests take theirs from (`genReqId`; the API
   * sets no `requestIdHeader`, which these answers would not read).
   */
  requestId(): string;
  /** The client's address as Fastify's `request.ip` gives it (the same proxies trusted). */
  clientAddress(request: IncomingMessage): string | undefined;
  /** Counts the answer and writes its line (`OneLinePerRequest.answered`). */
  answered(id: string, method: string, url: string, ip: string | undefined, route: string, status: number, elapsedMs: number): void;
}

type RequestListener = (this: Server, request: IncomingMessage, response: ServerResponse) => void;

/**
 * Puts in front of the server's request listener (Fastify's) a step that sends a cached answer
 * before Fastify routes the request, when the answer may be sent now: a GET for a URL whose kept answer
 * is still current (the same stamp check as the in-Fastify lookup), of a route open to everyone or
 * guarded by `authorize` alone, and a request the auth plugin admits without waiting (`admitsNow`: the
 * same token, session and roster checks, decided from folds already in memory). Anything else (a miss, a
 * refusal, a check that must read first, a route with hooks of its own, a HEAD, a closing app) goes
 * to Fastify as before, which decides it in full (401/403 included) and may still answer from the
 * cache there.
 *
 * Why: for a cached answer Fastify's own work (routing, its request and reply objects, the child
 * logger, the hook runner, two listeners per response) was most of what the product spent beyond the
 * bytes: `GET /` took ~30 µs of CPU against ~26 µs this way (bare Fastify ~23 µs) on the 2-core VM.
 * A cached answer through Fastify passed only the route's authorisation, which is done here (routes
 * with other hooks are left to Fastify: answer-cache.ts); it is counted under its route and logged in
 * the same line, with its own request id and its time from arrival, once its bytes are handed to the
 * kernel ('finish'), as Fastify completes its answers (Fastify also logs a response that fails with
 * 'error', which a response this small, written whole, does not get). The app has no application-wide
 * onRequest hook; one added later would not run for these answers (architecture.md).
 */
export function answerBeforeRouting(server: Server, cache: CachedAnswers, completion: Completion): void {
  const routed = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');

  const sentNow = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'GET') return false;
    const started = performance.now();
    const url = request.url!;
    let hit;
    try {
      if (cache.closing()) return false;
      hit = cache.answers.get(url);
      if (hit === undefined) return false;
      const { beforeRouting, from } = hit.route;
      if (beforeRouting === undefined || hit.stamp !== cache.stampOf(from)) return false;
      if (beforeRouting !== null && cache.admitsNow?.(request.headers.cookie, beforeRouting) !== true) return false;
    } catch {
      // A check that throws is Fastify's to answer (its error handler, its log): nothing is sent yet.
      return false;
    }
    const id = completion.requestId();
    const route = hit.route.url;
    response.once('finish', () => completion.answered(id, 'GET', url, completion.clientAddress(request), route, 200, performance.now() - started));
    response.writeHead(200, hit.headers);
    response.end(hit.body);
    return true;
  };

  server.on('request', function answerOrRoute(this: Server, request: IncomingMessage, response: ServerResponse) {
    if (sentNow(request, response)) return;
    for (const listener of routed) listener.call(this, request, response);
  });
}
