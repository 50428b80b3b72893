import type { FastifyReply } from 'fastify';

/**
 * The seed answers some requests with a bare JSON string. Fastify would send a returned string as
 * text/plain, so it is serialised here as JSON.
 */
export function sendJsonString(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').serializer((v) => JSON.stringify(v)).send(text);
}

/** 204 carries no body (HTTP forbids it): where the seed lists a string with a 204, none is sent. */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}
