import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http/http-error.js';

/**
 * Many HTTP helpers send `Content-Type: application/json` on every request, a body-less POST or DELETE
 * (logout, a delete) included: an empty body under that type is read as no body, not as malformed JSON.
 * Anything else goes through Fastify's own JSON parser (prototype pollution refused as before).
 *
 * Bodies are JSON only. A body of any other type (a plain `fetch` with a string body sends
 * text/plain, an HTML form sends application/x-www-form-urlencoded) is 415 saying what to send, rather
 * than read as a string and refused as "body must be object"; an empty one is no body, as under JSON,
 * and a route that takes no body (logout) ignores it.
 */
export default fp(async function jsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parse(request, text, done);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    // A route that takes no body ignores what it is sent (as it ignores a JSON one).
    if (body.toString().trim() === '' || !request.routeOptions.schema?.body) return done(null, undefined);
    const type = request.headers['content-type']?.split(';')[0]?.trim();
    const sent = type ? `Content-Type ${type} is not accepted` : 'A body without Content-Type is not accepted';
    return done(new HttpError(415, { message: `${sent}: send the body as application/json` }), undefined);
  });
});
