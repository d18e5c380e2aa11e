import { createHmac, hkdfSync } from "node:crypto";
import { and, asc, eq, gt, lte, or, sql } from "drizzle-orm";
import { loginSessions, tenantMemberships } from "../db/schema/index.js";
import { permissionsOf } from "./principal.js";
import { randomToken, sha256 } from "./secrets.js";
const SESSION_COOKIE = "sessionId";
const SESSION_IDLE_MS = 7 * 24 * 36e5;
const SESSION_ABSOLUTE_MS = 30 * 24 * 36e5;
const SESSION_ROTATE_MS = 24 * 36e5;
const SESSION_GRACE_MS = 6e4;
const TOUCH_MS = 6e4;
const interval = (ms) => sql`make_interval(secs => ${ms / 1e3})`;
async function createSession(db, userId, activeTenantId) {
  const token = randomToken(32);
  const now = Date.now();
  const absoluteExpiresAt = new Date(now + SESSION_ABSOLUTE_MS);
  const [row] = await db.insert(loginSessions).values({ tokenHash: sha256(token), userId, activeTenantId, idleExpiresAt: new Date(now + SESSION_IDLE_MS), absoluteExpiresAt }).returning({ id: loginSessions.id });
  return { id: row.id, token, absoluteExpiresAt };
}
async function endSession(db, token) {
  await db.delete(loginSessions).where(matchesId(sha256(token)));
}
const rotationKeys = /* @__PURE__ */ new WeakMap();
function rotatedToken(secret, token) {
  let key = rotationKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "delivery-analytics/login-session-rotation", 32));
    rotationKeys.set(secret, key);
  }
  return createHmac("sha256", key).update(token).digest("base64url");
}
function matchesId(hash) {
  return or(
    eq(loginSessions.tokenHash, hash),
    and(eq(loginSessions.previousTokenHash, hash), gt(loginSessions.rotatedAt, sql`now() - ${interval(SESSION_GRACE_MS)}`))
  );
}
async function resolveSession(db, token, secret) {
  if (token.length < 20 || token.length > 200) return null;
  return resolve(db, token, secret, true);
}
async function resolve(db, token, secret, mayRotate) {
  const hash = sha256(token);
  const [session] = await db.select({
    id: loginSessions.id,
    userId: loginSessions.userId,
    activeTenantId: loginSessions.activeTenantId,
    tokenHash: loginSessions.tokenHash,
    absoluteExpiresAt: loginSessions.absoluteExpiresAt,
    // Both decided on the database clock, the one every instance shares.
    rotationDue: sql`${loginSessions.rotatedAt} <= now() - ${interval(SESSION_ROTATE_MS)}`,
    touchDue: sql`${loginSessions.lastSeenAt} <= now() - ${interval(TOUCH_MS)}`
  }).from(loginSessions).where(and(matchesId(hash), gt(loginSessions.idleExpiresAt, sql`now()`), gt(loginSessions.absoluteExpiresAt, sql`now()`))).limit(1);
  if (!session) return null;
  const memberships = await db.select({ tenantId: tenantMemberships.tenantId, role: tenantMemberships.role }).from(tenantMemberships).where(eq(tenantMemberships.userId, session.userId)).orderBy(asc(tenantMemberships.createdAt));
  const active = memberships.find((m) => m.tenantId === session.activeTenantId) ?? memberships[0];
  if (!active) return null;
  const touch = {
    lastSeenAt: sql`now()`,
    idleExpiresAt: sql`least(now() + ${interval(SESSION_IDLE_MS)}, ${loginSessions.absoluteExpiresAt})`
  };
  let newToken = null;
  if (session.tokenHash !== hash) {
    const current = rotatedToken(secret, token);
    if (sha256(current) === session.tokenHash) newToken = current;
    if (session.touchDue) await db.update(loginSessions).set(touch).where(eq(loginSessions.id, session.id));
  } else if (session.rotationDue && mayRotate) {
    const next = rotatedToken(secret, token);
    const rotated = await db.update(loginSessions).set({ ...touch, tokenHash: sha256(next), previousTokenHash: hash, rotatedAt: sql`now()` }).where(and(eq(loginSessions.id, session.id), eq(loginSessions.tokenHash, hash), lte(loginSessions.rotatedAt, sql`now() - ${interval(SESSION_ROTATE_MS)}`))).returning({ id: loginSessions.id });
    if (rotated.length === 0) return resolve(db, token, secret, false);
    newToken = next;
  } else if (session.touchDue) {
    await db.update(loginSessions).set(touch).where(eq(loginSessions.id, session.id));
  }
  return {
    principal: {
      kind: "session",
      tenantId: active.tenantId,
      userId: session.userId,
      role: active.role,
      permissions: permissionsOf(active.role),
      sessionId: session.id
    },
    newToken,
    absoluteExpiresAt: session.absoluteExpiresAt
  };
}
function sessionCookie(token, expiresAt, secure) {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1e3));
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
function clearedSessionCookie(secure) {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
function readCookie(header, name) {
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
export {
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  SESSION_GRACE_MS,
  SESSION_IDLE_MS,
  SESSION_ROTATE_MS,
  clearedSessionCookie,
  createSession,
  endSession,
  readCookie,
  resolveSession,
  rotatedToken,
  sessionCookie
};
