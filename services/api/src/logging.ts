import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type LogFn } from 'pino';
import type { BatchedDestination } from '@comanda/runtime';
import { RequestLine, processFields } from './request-line.js';

// Every process logs through the same secret-safe options and one batched destination; they live
// with the runtime that builds loggers.
export { REDACT, SECRET_FIELDS, redactDeep, secretSafeLogging, processLogDestination } from '@comanda/runtime';

/** Counts an answer (the metrics): method, route pattern (`unmatched` for none), status, time taken in ms. */
export type CountAnswer = (method: string, route: string, status: number, elapsedMs: number) => void;

/** Whom a failure to count an answer is told to. */
interface ErrorLog {
  error(object: object, message: string): void;
}

/**
 * What is done when a request has been answered: it is counted (`countAnswer`, the metrics) and logged in
 * one line, written when it is answered (method, URL, client, status, time): Fastify's
 * default is two lines at `info` (incoming, completed). Errors and everything else as Fastify logs them.
 * Answers sent before routing (answers-before-routing.ts) are completed here too (`answered`), with the same line.
 *
 * The line is the one pino would write for the request's logger (request-line.ts), made here and
 * handed straight to the destination: through pino it cost a sixth of a small GET (child bindings,
 * the secret-redaction pass, the serialiser). On the process's batched destination its bytes are
 * written straight into the batch (`writeEncoded`); another destination is given it as a string.
 */
export class OneLinePerRequest extends LogController {
  private readonly prefix = processFields();
  private readonly enabled: boolean;
  private readonly batched?: BatchedDestination;

  constructor(
    private readonly destination: DestinationStream,
    level: string,
    private readonly countAnswer: CountAnswer = () => {},
  ) {
    super();
    this.enabled = (pino.levels.values[level] ?? Infinity) <= pino.levels.values.info!;
    if ('writeEncoded' in destination) this.batched = destination as BatchedDestination;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      this.count(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime, request.log);
      return super.requestCompleted(error, request, reply);
    }
    this.answered(request.id, request.method, request.url, request.ip, request.routeOptions.url, reply.statusCode, reply.elapsedTime, request.log);
  }

  /**
   * A request answered: counted under its route pattern (none: `unmatched`), and its line. `log` tells
   * of a failure to count: the request's own logger, or for an answer sent before routing (which has
   * none) the app's, the request's id then put in the line.
   */
  answered(id: string, method: string, url: string, ip: string | undefined, route: string | undefined, status: number, elapsedMs: number, log: ErrorLog, logHasNoId = false): void {
    this.count(method, route, status, elapsedMs, log, logHasNoId ? id : undefined);
    if (!this.enabled) return;
    const line = new RequestLine(this.prefix, Date.now(), id, method, url, ip, status, elapsedMs);
    if (this.batched) this.batched.writeEncoded(line);
    else this.destination.write(line.toString());
  }

  // Called from the response's 'finish' listener, where a throw would end the process: a failure to
  // count is logged, and the answer still gets its line.
  private count(method: string, route: string | undefined, status: number, elapsedMs: number, log: ErrorLog, reqId?: string): void {
    try {
      this.countAnswer(method, route ?? 'unmatched', status, elapsedMs);
    } catch (failure) {
      log.error(reqId === undefined ? { err: failure } : { err: failure, reqId }, 'answer not counted');
    }
  }
}

/**
 * Request ids as Fastify's default makes them (`req-1`, `req-2`… in base 36, wrapping at the largest
 * small integer), given to Fastify as its `genReqId` and used by the answers sent before routing, so
 * both kinds of answer number their requests in one sequence.
 */
export function requestIds(): () => string {
  let next = 0;
  return () => `req-${(next = (next + 1) & 0x7fffffff).toString(36)}`;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * The logger Fastify gives each request (its id bound), built on first use: pino builds a child in
 * ~14 µs, a tenth of a small GET, and a request that goes well logs nothing through it (its one line
 * is written by `OneLinePerRequest`). The level methods live on the prototype (set below), so a
 * request's logger is one small object, not six closures.
 */
interface RequestLogger extends Record<(typeof LEVELS)[number], LogFn> {}
class RequestLogger {
  private built?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get logger(): FastifyBaseLogger {
    return (this.built ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
for (const level of LEVELS) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]) {
    Reflect.apply(this.logger[level], this.logger, args);
  } as LogFn;
}

export const requestLogger = (parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new RequestLogger(parent, bindings, options);
