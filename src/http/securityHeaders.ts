/**
 * Headers every response of the app carries, set in one place (issue 32):
 * - `X-Content-Type-Options: nosniff` everywhere: no browser may read a JSON error or a CSV
 *   export as a script or a page.
 * - `Strict-Transport-Security` when APP_URL is https: the deployment is promised to be reached
 *   over TLS only (Traefik sets it too, for what never reaches a server: traefik/dynamic.yml).
 * - `Cache-Control: no-store` on every JSON answer that sets no policy of its own (tenant data, a
 *   principal's view), and on every answer to a request carrying `Authorization` whatever its type,
 *   set before the handler since some (MCP's transport) write straight to the socket. Responses
 *   with a policy of their own keep it: hashed web assets (immutable), OAuth metadata (public).
 */
import type Koa from 'koa';

export const HSTS = 'max-age=31536000; includeSubDomains';

export function securityHeaders(appUrl: string): Koa.Middleware {
  const https = appUrl.startsWith('https://');
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (https) ctx.set('Strict-Transport-Security', HSTS);
    if (ctx.get('authorization')) ctx.set('Cache-Control', 'no-store');
    await next();
    if (!ctx.headerSent && !ctx.response.get('Cache-Control') && ctx.response.is('json')) ctx.set('Cache-Control', 'no-store');
  };
}
