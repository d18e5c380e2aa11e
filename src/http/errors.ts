import type Koa from 'koa';
import { databaseError, isDataException } from '../db/errors.js';
import { AppError } from '../errors.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import type { Logger } from '../log.js';

/**
 * The one place errors become HTTP. Each surface has its own envelope:
 * - webhook API v1: `{error: 'Validation failed', details}`, `{error: 'Unauthorized'}`, …
 * - everything else: `{error: {code, message}}` (plus `details` on validation failures).
 * Unexpected errors are logged with the request id and answered with the surface's 500 body only;
 * a database error is logged as its SQLSTATE and constraint, never the query's values. A value the
 * database refuses (SQLSTATE class 22) is the caller's 400.
 */
const WEBHOOK_MESSAGES: Record<string, string> = {
  validation_failed: 'Validation failed',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Validation failed',
  rate_limited: 'Too many requests',
  unavailable: 'Service unavailable',
  timeout: 'Gateway timeout',
  internal: 'Internal server error',
};

export function isWebhookPath(path: string): boolean {
  return path.startsWith('/api/webhooks/');
}

export function errorMiddleware(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      const db = databaseError(caught);
      if (error.code === 'unavailable' && !(caught instanceof AppError)) {
        log.warn({ requestId: ctx.state.requestId, path: loggedPath(ctx), code: (caught as { code?: string }).code }, 'database unavailable');
      } else if (error.code === 'internal') {
        log.error({ err: caught, requestId: ctx.state.requestId, path: loggedPath(ctx), ...(db ? { db } : {}) }, 'unhandled error');
      } else if (db) {
        // Validation let through a value the database refused: answered 400, logged to be fixed.
        log.warn({ requestId: ctx.state.requestId, path: loggedPath(ctx), db }, 'database refused a value');
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      if (isWebhookPath(ctx.path)) {
        const body: Record<string, unknown> = { error: WEBHOOK_MESSAGES[error.code] ?? 'Error' };
        if (error.details) body.details = error.details;
        ctx.body = body;
      } else {
        const body: Record<string, unknown> = {
          error: { code: error.code, message: error.code === 'internal' ? 'Internal server error' : error.message },
        };
        if (error.details) (body.error as Record<string, unknown>).details = error.details;
        ctx.body = body;
      }
    }
  };
}

/**
 * The route's pattern (`/invite/:token`, `/api/keys/:id`) when a route matched: a path can carry a
 * credential (an invitation or survey link's token) and ids, which a log has no use for.
 */
function loggedPath(ctx: Koa.Context): string {
  const pattern = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof pattern === 'string' ? pattern : ctx.path;
}

/** Koa and body-parser errors carry an HTTP status; anything else is internal. */
export function toAppError(caught: unknown): AppError {
  if (caught instanceof AppError) return caught;
  if (isDatabaseUnavailable(caught)) {
    return new AppError('unavailable', 'The database is unreachable; retry later', undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }
  const db = databaseError(caught);
  if (isDataException(db)) {
    return new AppError('validation_failed', 'A value cannot be stored', [
      { path: db?.column ?? 'body', message: `A value is outside what the database can store (SQLSTATE ${db?.code})` },
    ]);
  }
  const status = (caught as { status?: number; statusCode?: number })?.status ?? (caught as { statusCode?: number })?.statusCode;
  const type = (caught as { type?: string })?.type;
  if (status === 413 || type === 'entity.too.large') return new AppError('payload_too_large', 'Request body is too large');
  if (status === 415) return new AppError('unsupported_media_type', 'Unsupported content type');
  if (status === 400) {
    return new AppError('validation_failed', 'Malformed request body', [{ path: 'body', message: 'Body is not valid JSON' }]);
  }
  if (status === 404) return new AppError('not_found', 'Not found');
  return new AppError('internal', 'Internal server error');
}

/** A response stream ended because the client went away (a navigation, a cancelled download). */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

/**
 * Errors Koa reports after the response has started (a streamed body failing), which
 * errorMiddleware can no longer answer. Replaces Koa's default, which writes the raw stack to
 * stderr outside the JSON log: a client leaving mid-stream is routine (debug), anything else is
 * logged as an error with its code only.
 */
export function afterResponseErrorHandler(log: Logger): (error: unknown, ctx?: Koa.Context) => void {
  return (error, ctx) => {
    const { code, status, expose } = error as { code?: string; status?: number; expose?: boolean };
    // As Koa's default: a 404 or an error meant for the client was answered, not failed.
    if (status === 404 || expose) return;
    const fields = { requestId: ctx?.state.requestId, path: ctx ? loggedPath(ctx) : undefined, code };
    if (code && CLIENT_GONE.has(code)) log.debug(fields, 'client closed the response early');
    else log.error({ ...fields, err: error }, 'response failed after it started');
  };
}
