import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import send from "koa-send";
import { authenticate } from "../auth/authenticate.js";
import { issueCsrfToken } from "../auth/csrf.js";
import { html } from "./html.js";
const APP_BASE = "/app";
const WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../web/dist");
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ");
const BILLING_PAGE = "/app/settings/billing";
const BILLING_PAGE_CSP = APP_CSP.replace("script-src 'self'", "script-src 'self' https://cdn.paddle.com").replace("style-src 'self'", "style-src 'self' https://cdn.paddle.com").replace("img-src 'self' data:", "img-src 'self' data: https://cdn.paddle.com").replace("connect-src 'self'", "connect-src 'self' https://*.paddle.com").replace("object-src 'none'", "frame-src https://buy.paddle.com https://sandbox-buy.paddle.com; object-src 'none'");
const CSRF_PLACEHOLDER = "__CSRF_TOKEN__";
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><rect x="7" y="17" width="4" height="8" fill="#fff"/><rect x="14" y="11" width="4" height="14" fill="#fff"/><rect x="21" y="6" width="4" height="19" fill="#fff"/></svg>`;
const FAVICON_PATHS = /* @__PURE__ */ new Set(["/favicon.ico", "/favicon.svg"]);
function readShell(dist, cached) {
  const file = join(dist, "index.html");
  if (!existsSync(file)) return null;
  const { mtimeMs } = statSync(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached;
  return { html: readFileSync(file, "utf8"), mtimeMs };
}
const MISSING_BUILD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head><body>
<h1>The web app is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it when it is missing), then reload.</p></body></html>`;
function webApp(app, options = {}) {
  const dist = options.dist ?? WEB_DIST;
  let shell = null;
  const asset = async (ctx) => {
    const served = await send(ctx, ctx.path.slice(APP_BASE.length + 1), {
      root: dist,
      immutable: true,
      maxage: 365 * 24 * 3600 * 1e3,
      brotli: true,
      gzip: true,
      hidden: false
    }).catch((error) => {
      if (error.status === 404 || error.status === 400) return null;
      throw error;
    });
    if (!served) {
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.set("Cache-Control", "no-store");
      ctx.body = "Not found";
    }
  };
  const page = async (ctx) => {
    ctx.set({
      "Content-Security-Policy": app.config.billing && ctx.path.replace(/\/+$/, "") === BILLING_PAGE ? BILLING_PAGE_CSP : APP_CSP,
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "Cache-Control": "no-store"
    });
    const principal = await authenticate(app, ctx.req, ctx.res);
    if (!principal || principal.kind !== "session") {
      ctx.status = 303;
      ctx.redirect(`/login?returnUrl=${encodeURIComponent(ctx.originalUrl)}`);
      return;
    }
    shell = readShell(dist, shell);
    ctx.type = "text/html; charset=utf-8";
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
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    if (ctx.path === "/") {
      ctx.status = 302;
      return ctx.redirect(`${APP_BASE}/`);
    }
    if (FAVICON_PATHS.has(ctx.path)) {
      ctx.type = "image/svg+xml";
      ctx.set("Cache-Control", "public, max-age=86400");
      ctx.body = FAVICON_SVG;
      return;
    }
    if (ctx.path.startsWith(`${APP_BASE}/assets/`)) return asset(ctx);
    if (ctx.path === APP_BASE || ctx.path.startsWith(`${APP_BASE}/`)) return page(ctx);
    return next();
  };
}
export {
  APP_BASE,
  APP_CSP,
  BILLING_PAGE,
  BILLING_PAGE_CSP,
  FAVICON_SVG,
  WEB_DIST,
  webApp
};
