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

/** Refuses a cross-origin browser request (Origin present and not ours). */
export function checkOrigin(ctx: Koa.Context, appUrl: string): void {
  const origin = ctx.get('origin');
  if (origin === '') return;
  const allowed = new Set([new URL(appUrl).origin, `${ctx.protocol}://${ctx.host}`]);
  if (!allowed.has(origin)) throw new AppError('forbidden', 'Cross-origin request refused');
}

/** A form post's hidden field must equal its cookie. */
export function checkFormToken(ctx: Koa.Context, field: unknown): void {
  const cookie = readCookie(ctx.get('cookie'), CSRF_COOKIE);
  if (cookie === null || typeof field !== 'string' || field === '' || !safeEqual(cookie, field)) {
    throw new AppError('forbidden', 'Invalid or missing CSRF token; reload the page and try again');
  }
}
