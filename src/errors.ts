/**
 * One error type for the whole program. Services throw AppError with a code; each HTTP surface
 * maps the code to a status through `statusOf` and writes its own envelope, in one middleware.
 */
import type { z } from 'zod';

export const statusOf = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  /** The tenant's subscription lapsed past its grace period: reads, exports and ingest still work (docs/billing.md). */
  read_only: 403,
  not_found: 404,
  conflict: 409,
  /** A tenant always keeps an owner: removing or demoting its last one is refused. */
  last_owner: 409,
  /** An invitation for someone who already belongs to the tenant. */
  already_member: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof statusOf;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers (Retry-After and friends). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOf[this.code];
  }
}

export const notFound = (what = 'Resource'): AppError => new AppError('not_found', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this'): AppError => new AppError('forbidden', message);
export const unauthorized = (message = 'Authentication required'): AppError => new AppError('unauthorized', message);

/** The value at a zod issue's path in the parsed input (undefined when absent). */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Zod issues as `{path, message}` details: every invalid field at once. Given the input, a field
 * that is absent is reported as "Required" rather than as a type error.
 */
export function zodDetails(error: z.ZodError, prefix?: string, input?: unknown): ErrorDetail[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.');
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && input !== undefined && valueAt(input, issue.path) === undefined;
    // A record's bad key says only "Invalid key in record"; the key schema's own words say why.
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return { path: path || (prefix ?? 'body'), message: missing ? 'Required' : message };
  });
}
