const CODES = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  // admin_shutdown
  "57P02",
  // crash_shutdown
  "57P03",
  // cannot_connect_now (starting up, shutting down)
  "53300"
  // too_many_connections
]);
const DRIVER_MESSAGES = /* @__PURE__ */ new Set([
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "Connection terminated unexpectedly"
]);
function isDatabaseUnavailable(error) {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = e.code;
    if (typeof code === "string" && (CODES.has(code) || code.startsWith("08"))) return true;
    if (DRIVER_MESSAGES.has(e.message)) return true;
  }
  return false;
}
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export {
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable
};
