import { createHmac, hkdfSync } from 'node:crypto';
import { and, asc, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { loginSessions, tenantMemberships } from '../db/schema/index.js';
import { permissionsOf, type TenantPrincipal } from './principal.js';
import { randomToken, sha256 } from './secrets.js';

export const SESSION_COOKIE = 'sessionId';
/** A session ends after 7 days without use, and 30 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** The cookie's id is replaced at sign-in and then once a day of use. */
export const SESSION_ROTATE_MS = 24 * 3600_000;
/**
 * After a rotation the previous id keeps working this long (same session, never rotating again),
 * for requests the browser sent in parallel with the old cookie. Measured on the database clock.
 */
export const SESSION_GRACE_MS = 60_000;
/** The idle expiry is pushed forward at most once a minute (a write per request would be wasteful). */
const TOUCH_MS = 60_000;

/** An interval of `ms` milliseconds, as a bound parameter (no SQL text from values). */
const interval = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

export interface NewSession {
  id: string;
  token: string;
  absoluteExpiresAt: Date;
}

export async function createSession(db: Db, userId: string, activeTenantId: string | null): Promise<NewSession> {
  const token = randomToken(32);
  const now = Date.now();
  const absoluteExpiresAt = new Date(now + SESSION_ABSOLUTE_MS);
  const [row] = await db
    .insert(loginSessions)
    .values({ tokenHash: sha256(token), userId, activeTenantId, idleExpiresAt: new Date(now + SESSION_IDLE_MS), absoluteExpiresAt })
    .returning({ id: loginSessions.id });
  return { id: (row as { id: string }).id, token, absoluteExpiresAt };
}

/**
 * Ends the session of a cookie id: its current id, or its previous one within the grace (then both
 * ids fail at once, on every instance).
 */
export async function endSession(db: Db, token: string): Promise<void> {
  await db.delete(loginSessions).where(matchesId(sha256(token)));
}

export interface ResolvedSession {
  principal: TenantPrincipal;
  /**
   * Set when the caller must send this cookie value: the id was rotated now, or the request came
   * with the previous id within the grace (the current id again, so the browser converges).
   */
  newToken: string | null;
  absoluteExpiresAt: Date;
}

const rotationKeys = new WeakMap<Buffer, Buffer>();

/**
 * The id that replaces `token` at its rotation: HMAC-SHA256 under a key derived (HKDF, a purpose of
 * its own) from OAUTH_ENCRYPTION_KEY. Deterministic so that a request with the previous id during
 * the grace, on any instance, can hand the current id out again although only hashes are stored;
 * without the server secret the old id says nothing about the new one.
 */
export function rotatedToken(secret: Buffer, token: string): string {
  let key = rotationKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'delivery-analytics/login-session-rotation', 32));
    rotationKeys.set(secret, key);
  }
  return createHmac('sha256', key).update(token).digest('base64url');
}

/** The row of an id hash: its current id, or its previous id still within the grace. */
function matchesId(hash: string) {
  return or(
    eq(loginSessions.tokenHash, hash),
    and(eq(loginSessions.previousTokenHash, hash), gt(loginSessions.rotatedAt, sql`now() - ${interval(SESSION_GRACE_MS)}`)),
  );
}

/**
 * The principal of a session cookie: unknown, tampered or expired ids resolve to null, as does a
 * previous id past its grace. The active tenant is the session's choice, or the user's oldest
 * membership; a user who lost every membership has no principal. `secret` is OAUTH_ENCRYPTION_KEY
 * (see rotatedToken).
 *
 * Rotation is one conditional UPDATE (`WHERE token_hash = <this id> AND rotated_at <= now() - 1
 * day`): of requests racing with the id that is due, exactly one rotates; the others find the row
 * changed, look again and are served through the grace path, with the same new id.
 */
export async function resolveSession(db: Db, token: string, secret: Buffer): Promise<ResolvedSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  return resolve(db, token, secret, true);
}

async function resolve(db: Db, token: string, secret: Buffer, mayRotate: boolean): Promise<ResolvedSession | null> {
  const hash = sha256(token);
  const [session] = await db
    .select({
      id: loginSessions.id,
      userId: loginSessions.userId,
      activeTenantId: loginSessions.activeTenantId,
      tokenHash: loginSessions.tokenHash,
      absoluteExpiresAt: loginSessions.absoluteExpiresAt,
      // Both decided on the database clock, the one every instance shares.
      rotationDue: sql<boolean>`${loginSessions.rotatedAt} <= now() - ${interval(SESSION_ROTATE_MS)}`,
      touchDue: sql<boolean>`${loginSessions.lastSeenAt} <= now() - ${interval(TOUCH_MS)}`,
    })
    .from(loginSessions)
    .where(and(matchesId(hash), gt(loginSessions.idleExpiresAt, sql`now()`), gt(loginSessions.absoluteExpiresAt, sql`now()`)))
    .limit(1);
  if (!session) return null;

  const memberships = await db
    .select({ tenantId: tenantMemberships.tenantId, role: tenantMemberships.role })
    .from(tenantMemberships)
    .where(eq(tenantMemberships.userId, session.userId))
    .orderBy(asc(tenantMemberships.createdAt));
  const active = memberships.find((m) => m.tenantId === session.activeTenantId) ?? memberships[0];
  if (!active) return null;

  const touch = {
    lastSeenAt: sql`now()`,
    idleExpiresAt: sql`least(now() + ${interval(SESSION_IDLE_MS)}, ${loginSessions.absoluteExpiresAt})`,
  };
  let newToken: string | null = null;
  if (session.tokenHash !== hash) {
    // The previous id within its grace: the same session, never rotated again. The current id is
    // sent again when it is the one derived from this id (always, unless the secret changed since).
    const current = rotatedToken(secret, token);
    if (sha256(current) === session.tokenHash) newToken = current;
    if (session.touchDue) await db.update(loginSessions).set(touch).where(eq(loginSessions.id, session.id));
  } else if (session.rotationDue && mayRotate) {
    const next = rotatedToken(secret, token);
    const rotated = await db
      .update(loginSessions)
      .set({ ...touch, tokenHash: sha256(next), previousTokenHash: hash, rotatedAt: sql`now()` })
      .where(and(eq(loginSessions.id, session.id), eq(loginSessions.tokenHash, hash), lte(loginSessions.rotatedAt, sql`now() - ${interval(SESSION_ROTATE_MS)}`)))
      .returning({ id: loginSessions.id });
    // Another request rotated this id first (or the session just ended): look again, as a
    // previous id within its grace (or nothing).
    if (rotated.length === 0) return resolve(db, token, secret, false);
    newToken = next;
  } else if (session.touchDue) {
    await db.update(loginSessions).set(touch).where(eq(loginSessions.id, session.id));
  }
  return {
    principal: {
      kind: 'session',
      tenantId: active.tenantId,
      userId: session.userId,
      role: active.role,
      permissions: permissionsOf(active.role),
      sessionId: session.id,
    },
    newToken,
    absoluteExpiresAt: session.absoluteExpiresAt,
  };
}

/** The Set-Cookie value of a session: HttpOnly, SameSite=Lax, Secure in production. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      // A value we never issued (`%zz`) is no credential: absent, not a 500 on every request.
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
