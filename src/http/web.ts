/**
 * The web app (web/, built by Vite into web/dist) served by this program:
 * - `/app/assets/*`: hashed files, cached for a year as immutable, sent precompressed (.br/.gz
 *   written at build time) when the browser accepts it;
 * - any other GET under `/app`: the shell (index.html) with the CSRF token filled in, never cached,
 *   under a strict Content-Security-Policy (scripts and styles from this origin only, no inline script);
 * - `/`: a redirect to `/app/`.
 * A signed-out visitor of an app page is sent to `/login?returnUrl=<the page>` by the server, so a
 * shared link survives sign-in. The API keeps its own 401s; the app handles them in api/client.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import send from 'koa-send';
import { issueCsrfToken } from '../auth/csrf.js';
import type { AppContext } from '../context.js';
import { html } from './html.js';
import { trimEnd } from '../shared/text.js';

export const APP_BASE = '/app';
export const WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Scripts, styles, images, fonts and XHR/websocket from this origin only; nothing may frame the app. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Settings › Billing only, and only with billing on: Paddle.js from Paddle's CDN, and its checkout
 * frame from Paddle's checkout hosts (live and sandbox). Every other page keeps APP_CSP. The page
 * is reached by a full load (web/src/routes/settings/layout.tsx), so this header is the one in force.
 */
export const BILLING_PAGE = '/app/settings/billing';
export const BILLING_PAGE_CSP = APP_CSP.replace("script-src 'self'", "script-src 'self' https://cdn.paddle.com")
  .replace("style-src 'self'", "style-src 'self' https://cdn.paddle.com")
  .replace("img-src 'self' data:", "img-src 'self' data: https://cdn.paddle.com")
  .replace("connect-src 'self'", "connect-src 'self' https://*.paddle.com")
  .replace("object-src 'none'", "frame-src https://buy.paddle.com https://sandbox-buy.paddle.com; object-src 'none'");

const CSRF_PLACEHOLDER = '__CSRF_TOKEN__';

/**
 * The icon of every page, the sign-in pages included: a bar chart in the app's accent colour.
 * Served at /favicon.svg (the shell's `<link rel="icon">`) and at /favicon.ico, which browsers ask
 * for on pages without a link (an SVG body there too: Chromium and Firefox read it by its type).
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><rect x="7" y="17" width="4" height="8" fill="#fff"/><rect x="14" y="11" width="4" height="14" fill="#fff"/><rect x="21" y="6" width="4" height="19" fill="#fff"/></svg>`;
const FAVICON_PATHS = new Set(['/favicon.ico', '/favicon.svg']);

interface Shell {
  html: string;
  mtimeMs: number;
}

function readShell(dist: string, cached: Shell | null): Shell | null {
  const file = join(dist, 'index.html');
  if (!existsSync(file)) return null;
  const { mtimeMs } = statSync(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached;
  return { html: readFileSync(file, 'utf8'), mtimeMs };
}

const MISSING_BUILD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head><body>
<h1>The web app is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it when it is missing), then reload.</p></body></html>`;

export function webApp(app: AppContext, options: { dist?: string } = {}): Koa.Middleware {
  const dist = options.dist ?? WEB_DIST;
  let shell: Shell | null = null;

  const asset = async (ctx: Koa.Context) => {
    const served = await send(ctx, ctx.path.slice(APP_BASE.length + 1), {
      root: dist,
      immutable: true,
      maxage: 365 * 24 * 3600 * 1000,
      brotli: true,
      gzip: true,
      hidden: false,
    }).catch((error: { status?: number }) => {
      if (error.status === 404 || error.status === 400) return null;
      throw error;
    });
    if (!served) {
      // A chunk of an older deploy: the app reloads itself once (router.tsx) to get the new shell.
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = 'Not found';
    }
  };

  const page = async (ctx: Koa.Context) => {
    ctx.set({
      'Content-Security-Policy': app.config.billing && trimEnd(ctx.path, '/') === BILLING_PAGE ? BILLING_PAGE_CSP : APP_CSP,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    const principal = await app.requestHooks.authenticate(app, ctx.req, ctx.res);
    if (!principal || principal.kind !== 'session') {
      ctx.status = 303;
      ctx.redirect(`/login?returnUrl=${encodeURIComponent(ctx.originalUrl)}`);
      return;
    }
    shell = readShell(dist, shell);
    ctx.type = 'text/html; charset=utf-8';
    if (!shell) {
      ctx.status = 503;
      ctx.body = MISSING_BUILD;
      return;
    }
    const token = issueCsrfToken(ctx, app.config.production);
    ctx.status = 200;
    ctx.body = shell.html.replace(CSRF_PLACEHOLDER, html`${token}`.value);
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/') {
      ctx.status = 302;
      return ctx.redirect(`${APP_BASE}/`);
    }
    if (FAVICON_PATHS.has(ctx.path)) {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = FAVICON_SVG;
      return;
    }
    if (ctx.path.startsWith(`${APP_BASE}/assets/`)) return asset(ctx);
    if (ctx.path === APP_BASE || ctx.path.startsWith(`${APP_BASE}/`)) return page(ctx);
    return next();
  };
}
