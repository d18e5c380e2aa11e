import { AppError } from "../errors.js";
import { randomToken, safeEqual } from "./secrets.js";
import { readCookie } from "./sessions.js";
const CSRF_COOKIE = "csrfToken";
const CSRF_FIELD = "csrf";
const CSRF_MAX_AGE_SECONDS = 2 * 3600;
function issueCsrfToken(ctx, secure) {
  const current = readCookie(ctx.get("cookie"), CSRF_COOKIE);
  const token = current !== null && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomToken(32);
  ctx.append("Set-Cookie", `${CSRF_COOKIE}=${token}; Path=/; Max-Age=${CSRF_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
  return token;
}
function isFormPost(ctx) {
  return Boolean(ctx.is("application/x-www-form-urlencoded"));
}
function checkOrigin(ctx, appUrl) {
  const origin = ctx.get("origin");
  if (origin === "") return;
  const allowed = /* @__PURE__ */ new Set([new URL(appUrl).origin, `${ctx.protocol}://${ctx.host}`]);
  if (!allowed.has(origin)) throw new AppError("forbidden", "Cross-origin request refused");
}
function checkFormToken(ctx, field) {
  const cookie = readCookie(ctx.get("cookie"), CSRF_COOKIE);
  if (cookie === null || typeof field !== "string" || field === "" || !safeEqual(cookie, field)) {
    throw new AppError("forbidden", "Invalid or missing CSRF token; reload the page and try again");
  }
}
export {
  CSRF_COOKIE,
  CSRF_FIELD,
  checkFormToken,
  checkOrigin,
  isFormPost,
  issueCsrfToken
};
