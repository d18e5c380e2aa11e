import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { asSystem } from '../db/tenancy.js';
import { principalFromApiKey } from '../apiKeys/principal.js';
import type { Principal } from '../auth/principal.js';
import { safeEqual } from '../auth/secrets.js';
import { readCookie, resolveSession, SESSION_COOKIE, sessionCookie } from '../auth/sessions.js';

export interface RequestLike {
  headers: IncomingHttpHeaders;
}

/**
 * Resolves the caller from, in order: `X-Admin-Secret` (the global administrator, only when
 * ADMIN_SECRET is set), `Authorization: Bearer gai_…` (an API key), the `sessionId` cookie.
 * Credentials that are present but wrong resolve to null: a bad bearer never falls back to a cookie.
 * When `res` is given and the session id rotates, the new cookie is set on it.
 */
export function authenticate(app: AppContext, req: RequestLike, res?: ServerResponse): Promise<Principal | null> {
  // The principal is not known yet, so its lookups (key by hash, session by token) span tenants.
  return asSystem('authentication', () => resolvePrincipal(app, req, res));
}

async function resolvePrincipal(app: AppContext, req: RequestLike, res?: ServerResponse): Promise<Principal | null> {
  const adminHeader = req.headers['x-admin-secret'];
  if (typeof adminHeader === 'string') {
    const secret = app.config.adminSecret;
    if (secret !== null && safeEqual(adminHeader, secret)) {
      return { kind: 'admin', tenantId: null, userId: null, role: null, permissions: ['admin', 'read', 'write'] };
    }
    return null;
  }

  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) return null;
    return principalFromApiKey(app.database.db, match[1] as string);
  }

  const token = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (token === null) return null;
  const resolved = await resolveSession(app.database.db, token, app.config.oauthEncryptionKey);
  if (!resolved) return null;
  if (resolved.newToken && res && !res.headersSent) {
    res.appendHeader('Set-Cookie', sessionCookie(resolved.newToken, resolved.absoluteExpiresAt, app.config.production));
  }
  return resolved.principal;
}
