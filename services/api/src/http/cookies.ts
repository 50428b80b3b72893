import type { FastifyRequest } from 'fastify';

/**
 * A request's cookie, its header parsed on first use (@fastify/cookie is registered with `hook: false`):
 * the greeting, health probes and the kitchen page read no cookie, so they do not parse one.
 */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  request.cookies ??= request.server.parseCookie(request.headers.cookie ?? '');
  return request.cookies[name];
}
