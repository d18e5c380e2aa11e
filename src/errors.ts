/**
 * One error type for the whole program. Services throw AppError with a code; each HTTP surface
 * maps the code to a status through `statusOf` and writes its own envelope, in one middleware.
 */
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
