import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Many HTTP helpers send `Content-Type: application/json` on every request, a body-less POST or DELETE
 * (logout, a delete) included: an empty body under that type is read as no body, not as malformed JSON.
 * Anything else goes through Fastify's own JSON parser (prototype pollution refused as before).
 */
export default fp(async function jsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parse(request, text, done);
  });
});
