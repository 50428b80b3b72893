import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The parent as Fastify hands it over: pino's logger, which says which levels it writes. */
interface ParentLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}
const asksLevels = (logger: FastifyBaseLogger): logger is ParentLogger => 'isLevelEnabled' in logger;

/**
 * A request's logger (`request.log`), made into pino's child of the app's logger — bound to the request
 * id — when it first writes a line, not when the request arrives.
 *
 * Most requests write nothing at the configured level: a tablet's poll answered in time is logged at
 * debug (request-lines.ts). pino makes a child eagerly — a new object, its formatters rebuilt (Fastify
 * passes options, so pino takes its slow path) and its bindings serialised — which was the largest
 * allocation of a revalidated GET after the request and reply themselves (docs/benchmarks.md). The
 * lines this logger writes are the child's, byte for byte.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(private readonly parent: ParentLogger, private readonly bindings: Bindings) {}

  private logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  /**
   * pino's own question, asked before a line is written (and by code that asks it of `request.log`):
   * the app's logger's answer until the child is made, the child's after (it may have set its own level).
   */
  isLevelEnabled(level: string): boolean {
    const asked = this.made ?? this.parent;
    return asksLevels(asked) ? asked.isLevelEnabled(level) : true;
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const logger = this.logger();
    Reflect.apply(logger[level], logger, args);
  }

  fatal(...args: unknown[]): void { this.write('fatal', args); }
  error(...args: unknown[]): void { this.write('error', args); }
  warn(...args: unknown[]): void { this.write('warn', args); }
  info(...args: unknown[]): void { this.write('info', args); }
  debug(...args: unknown[]): void { this.write('debug', args); }
  trace(...args: unknown[]): void { this.write('trace', args); }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a request logger made on first use, unless the route asks for a
 * level or serializers of its own (then pino's child at once, as Fastify's default does).
 */
export const requestLoggers: NonNullable<FastifyServerOptions['childLoggerFactory']> = function requestLogger(logger, bindings, options) {
  if (!asksLevels(logger) || options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings);
};
