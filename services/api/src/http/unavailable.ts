/**
 * Whether a failure means a store or the bus cannot be reached right now (a restart, a failover, a cut
 * network): the request may be retried, and the client gets 503 with Retry-After, never the driver's
 * words. Recognised by the codes and names the drivers document, not by message text where a code exists.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// PostgreSQL SQLSTATEs: class 08 (connection exception), admin/crash shutdown, cannot connect now, too many connections.
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
// nats.js error codes for a connection that is gone or a request nobody answered in time.
const NATS_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'DISCONNECT', 'TIMEOUT', '503', 'CONNECTION_REFUSED']);
const DRIVER_NAMES = new Set(['MongoNetworkError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'UnavailableError', 'NatsError_unavailable']);
// node-postgres raises these without a code when the socket drops under a query.
const POSTGRES_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly)/;

export function isUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 3) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || POSTGRES_STATES.has(code) || code.startsWith('08') || NATS_CODES.has(code)) return true;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_IOERR' || code === 'SQLITE_FULL') return true;
  if (typeof e.name === 'string' && DRIVER_NAMES.has(e.name)) return true;
  if (typeof e.message === 'string' && POSTGRES_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return isUnavailable(e.cause, depth + 1);
}
