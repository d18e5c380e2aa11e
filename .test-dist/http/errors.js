import { databaseError, isDataException } from "../db/errors.js";
import { AppError } from "../errors.js";
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../db/unavailable.js";
const WEBHOOK_MESSAGES = {
  validation_failed: "Validation failed",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  not_found: "Not found",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Validation failed",
  rate_limited: "Too many requests",
  unavailable: "Service unavailable",
  timeout: "Gateway timeout",
  internal: "Internal server error"
};
function isWebhookPath(path) {
  return path.startsWith("/api/webhooks/");
}
function errorMiddleware(log) {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      const db = databaseError(caught);
      if (error.code === "unavailable" && !(caught instanceof AppError)) {
        log.warn({ requestId: ctx.state.requestId, path: loggedPath(ctx), code: caught.code }, "database unavailable");
      } else if (error.code === "internal") {
        log.error({ err: caught, requestId: ctx.state.requestId, path: loggedPath(ctx), ...db ? { db } : {} }, "unhandled error");
      } else if (db) {
        log.warn({ requestId: ctx.state.requestId, path: loggedPath(ctx), db }, "database refused a value");
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      if (isWebhookPath(ctx.path)) {
        const body = { error: WEBHOOK_MESSAGES[error.code] ?? "Error" };
        if (error.details) body.details = error.details;
        ctx.body = body;
      } else {
        const body = {
          error: { code: error.code, message: error.code === "internal" ? "Internal server error" : error.message }
        };
        if (error.details) body.error.details = error.details;
        ctx.body = body;
      }
    }
  };
}
function loggedPath(ctx) {
  const pattern = ctx._matchedRoute;
  return typeof pattern === "string" ? pattern : ctx.path;
}
function toAppError(caught) {
  if (caught instanceof AppError) return caught;
  if (isDatabaseUnavailable(caught)) {
    return new AppError("unavailable", "The database is unreachable; retry later", void 0, { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }
  const db = databaseError(caught);
  if (isDataException(db)) {
    return new AppError("validation_failed", "A value cannot be stored", [
      { path: db?.column ?? "body", message: `A value is outside what the database can store (SQLSTATE ${db?.code})` }
    ]);
  }
  const status = caught?.status ?? caught?.statusCode;
  const type = caught?.type;
  if (status === 413 || type === "entity.too.large") return new AppError("payload_too_large", "Request body is too large");
  if (status === 415) return new AppError("unsupported_media_type", "Unsupported content type");
  if (status === 400) {
    return new AppError("validation_failed", "Malformed request body", [{ path: "body", message: "Body is not valid JSON" }]);
  }
  if (status === 404) return new AppError("not_found", "Not found");
  return new AppError("internal", "Internal server error");
}
const CLIENT_GONE = /* @__PURE__ */ new Set(["ERR_STREAM_PREMATURE_CLOSE", "ECONNRESET", "EPIPE"]);
function afterResponseErrorHandler(log) {
  return (error, ctx) => {
    const { code, status, expose } = error;
    if (status === 404 || expose) return;
    const fields = { requestId: ctx?.state.requestId, path: ctx ? loggedPath(ctx) : void 0, code };
    if (code && CLIENT_GONE.has(code)) log.debug(fields, "client closed the response early");
    else log.error({ ...fields, err: error }, "response failed after it started");
  };
}
export {
  afterResponseErrorHandler,
  errorMiddleware,
  isWebhookPath,
  toAppError
};
