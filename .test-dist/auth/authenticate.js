import { asSystem } from "../db/tenancy.js";
import { principalFromApiKey } from "../apiKeys/principal.js";
import { safeEqual } from "./secrets.js";
import { readCookie, resolveSession, SESSION_COOKIE, sessionCookie } from "./sessions.js";
function authenticate(app, req, res) {
  return asSystem("authentication", () => resolvePrincipal(app, req, res));
}
async function resolvePrincipal(app, req, res) {
  const adminHeader = req.headers["x-admin-secret"];
  if (typeof adminHeader === "string") {
    const secret = app.config.adminSecret;
    if (secret !== null && safeEqual(adminHeader, secret)) {
      return { kind: "admin", tenantId: null, userId: null, role: null, permissions: ["admin", "read", "write"] };
    }
    return null;
  }
  const authorization = req.headers.authorization;
  if (authorization !== void 0) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) return null;
    return principalFromApiKey(app.database.db, match[1]);
  }
  const token = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (token === null) return null;
  const resolved = await resolveSession(app.database.db, token, app.config.oauthEncryptionKey);
  if (!resolved) return null;
  if (resolved.newToken && res && !res.headersSent) {
    res.appendHeader("Set-Cookie", sessionCookie(resolved.newToken, resolved.absoluteExpiresAt, app.config.production));
  }
  return resolved.principal;
}
export {
  authenticate
};
