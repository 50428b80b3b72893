import type { FastifyReply } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The seed answers some requests with a bare JSON string. Fastify would send a returned string as
 * text/plain, so it is quoted here and sent as JSON: Fastify sends a string whose type is already set
 * as it is, so no serializer is built for the reply.
 */
export function sendJsonString(reply: FastifyReply, status: number, text: string): FastifyReply {
  return sendJsonText(reply, status, JSON.stringify(text));
}

/** A JSON answer worked out once (the greeting): each request sends the same string. */
export function sendJsonText(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(json);
}

/** 204 carries no body (HTTP forbids it): where the seed lists a string with a 204, none is sent. */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}
