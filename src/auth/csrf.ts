import type Koa from 'koa';
import { AppError } from '../errors.js';
import { randomToken, safeEqual } from './secrets.js';
import { readCookie } from './sessions.js';

/**
 * CSRF protection of the HTML form posts (sign-in form, sign-out form), in two layers:
 * 1. Double-submit token: the page that renders a form sets cookie `csrfToken` (HttpOnly,
 *    SameSite=Lax) and puts the same value in a hidden `csrf` field; a form post must carry both,
 *    equal. Another site can make a browser post a form but can neither read nor set our cookie.
 * 2. Origin check: a browser request whose `Origin` header names another origin than APP_URL's
 *    (or the host it was sent to) is refused, for JSON posts too.
 * JSON posts need no token: a browser sends `Content-Type: application/json` to another origin
 * only after a CORS preflight, which this server never approves. Bearer API keys are not cookies
 * and cannot be sent by another site at all.
 */
export const CSRF_COOKIE = 'csrfToken';
export const CSRF_FIELD = 'csrf';
const CSRF_MAX_AGE_SECONDS = 2 * 3600;

/** The token for a form being rendered: the browser's current one when it has one, else a new one. */
export function issueCsrfToken(ctx: Koa.Context, secure: boolean): string {
  const current = readCookie(ctx.get('cookie'), CSRF_COOKIE);
  const token = current !== null && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomToken(32);
  ctx.append('Set-Cookie', `${CSRF_COOKIE}=${token}; Path=/; Max-Age=${CSRF_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
  return token;
}

export function isFormPost(ctx: Koa.Context): boolean {
  return Boolean(ctx.is('application/x-www-form-urlencoded'));
}

/**
 * Refuses a browser request made by another site or origin: `Sec-Fetch-Site` says `cross-site` or
 * `same-site` (a sibling origin: it gets our SameSite=Lax cookie), or `Origin` is present and not
 * ours (`null` included). Browsers set both headers themselves and no page can forge them; a
 * browser that sends neither is not one a page can drive across origins.
 */
export function checkOrigin(ctx: Koa.Context, appUrl: string): void {
  const site = ctx.get('sec-fetch-site').toLowerCase();
  if (site === 'cross-site' || site === 'same-site') throw new AppError('forbidden', 'Cross-origin request refused');
  const origin = ctx.get('origin');
  if (origin === '') return;
  const allowed = new Set([new URL(appUrl).origin, `${ctx.protocol}://${ctx.host}`]);
  if (!allowed.has(origin)) throw new AppError('forbidden', 'Cross-origin request refused');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The session cookie is ambient: a sibling origin of the same site gets it sent (SameSite=Lax), and
 * a text/plain, form or empty POST needs no CORS preflight. So every change that carries the
 * session cookie and no other credential must come from our own origin, whatever its content type
 * and whichever handler answers it (routes, the Cube API, the MCP endpoint, the OAuth pages): one
 * check before routing. Bearer keys and the administrator's header are not ambient and need none.
 */
export function refuseCrossSiteCookieWrites(appUrl: string, cookieName: string): Koa.Middleware {
  return async (ctx, next) => {
    const cookieAuthenticated = ctx.get('authorization') === '' && ctx.get('x-admin-secret') === '' && readCookie(ctx.get('cookie'), cookieName) !== null;
    if (cookieAuthenticated && !SAFE_METHODS.has(ctx.method)) checkOrigin(ctx, appUrl);
    await next();
  };
}

/** A form post's hidden field must equal its cookie. */
export function checkFormToken(ctx: Koa.Context, field: unknown): void {
  const cookie = readCookie(ctx.get('cookie'), CSRF_COOKIE);
  if (cookie === null || typeof field !== 'string' || field === '' || !safeEqual(cookie, field)) {
    throw new AppError('forbidden', 'Invalid or missing CSRF token; reload the page and try again');
  }
}
