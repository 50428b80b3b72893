import type { FastifyInstance } from 'fastify';

/** Short requests for the resource tests: one member of staff's cookie, JSON bodies, extra headers. */
export function requests(app: FastifyInstance, cookie: string) {
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE') => (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { get: send('GET'), post: send('POST'), put: send('PUT'), del: send('DELETE') };
}

/** The id at the end of a Location header. */
export const locationId = (location: unknown): string => String(location).split('/').pop()!;
