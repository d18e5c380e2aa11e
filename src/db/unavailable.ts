/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, refusing
 * connections, a connection lost mid-query) rather than "this query is wrong". The first kind is a
 * 503 `unavailable` with Retry-After: a client should come back, nothing about its request was
 * at fault. Walks `cause` (drizzle wraps driver errors in DrizzleQueryError).
 */

/** Socket errors of the connection and SQLSTATEs of a server that is going away or not there yet. */
const CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);

/**
 * pg and pg-pool give these connection failures no code, only a fixed message: the pool's
 * connection timeout and a server that closed the socket. Matched exactly, from those libraries.
 */
const DRIVER_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CODES.has(code) || code.startsWith('08'))) return true;
    if (DRIVER_MESSAGES.has(e.message)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
