const statusOf = {
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
  timeout: 504
};
class AppError extends Error {
  constructor(code, message, details, headers) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.name = "AppError";
  }
  code;
  details;
  headers;
  get status() {
    return statusOf[this.code];
  }
}
const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
const forbidden = (message = "You do not have permission to do this") => new AppError("forbidden", message);
const unauthorized = (message = "Authentication required") => new AppError("unauthorized", message);
export {
  AppError,
  forbidden,
  notFound,
  statusOf,
  unauthorized
};
