import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** A read slower than this is logged at info like a write: someone is waiting on it. */
const SLOW_READ_MS = 1_000;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Levels that write a quiet read's line (asked first, so a quiet read at info builds no line's fields). */
const DETAILED = new Set(['debug', 'trace']);

/**
 * Fastify's request logging, one line a request, at the level a restaurant's operator wants it:
 * - `request completed` names the request (method, URL, address) beside its status and time, so
 *   `incoming request` (which said nothing more) moves to debug;
 * - every write, every answer ≥ 400 and every slow read at info: what happened during service;
 * - a read answered well and in time at debug: forty tablets polling every two seconds would
 *   otherwise be twenty lines a second saying nothing changed, and writing them was the largest
 *   part of a polled GET's CPU (docs/benchmarks.md).
 * `LOG_LEVEL=debug` shows every line again.
 */
export class RequestLines extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    if (DETAILED.has(request.log.level)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = reply.elapsedTime;
    if (error) return reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    const quiet = READS.has(request.method) && reply.statusCode < 400 && responseTime < SLOW_READ_MS;
    if (!quiet) reply.log.info({ req: request, res: reply, responseTime }, 'request completed');
    else if (DETAILED.has(reply.log.level)) reply.log.debug({ req: request, res: reply, responseTime }, 'request completed');
  }
}
