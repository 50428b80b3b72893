import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

// Every process logs through the same secret-safe options and one batched destination; they live
// with the runtime that builds loggers.
export { REDACT, SECRET_FIELDS, redactDeep, secretSafeLogging, processLogDestination } from '@comanda/runtime';

/**
 * One line per request, written when it is answered (method, URL, client, status, time): Fastify's
 * default is two lines at `info` (incoming, completed). Errors and everything else as Fastify logs them.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    // Flat fields (no request serializer, nothing nested to redact): this line is written per request.
    reply.log.info({ method: request.method, url: request.url, remoteAddress: request.ip, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime * 1000) / 1000 }, 'request completed');
  }
}
