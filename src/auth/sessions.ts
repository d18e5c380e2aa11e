import { and, asc, eq, gt, sql } from 'drizzle-orm';
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

export async function endSession(db: Db, token: string): Promise<void> {
  await db.delete(loginSessions).where(eq(loginSessions.tokenHash, sha256(token)));
}

export interface ResolvedSession {
  principal: TenantPrincipal;
  /** Set when the id was rotated: the caller must send this new cookie value. */
  newToken: string | null;
  absoluteExpiresAt: Date;
}

/**
 * The principal of a session cookie: unknown, tampered or expired ids resolve to null. The active
 * tenant is the session's choice, or the user's oldest membership; a user who lost every
 * membership has no principal.
 */
export async function resolveSession(db: Db, token: string): Promise<ResolvedSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  const [session] = await db
    .select()
    .from(loginSessions)
    .where(and(eq(loginSessions.tokenHash, sha256(token)), gt(loginSessions.idleExpiresAt, sql`now()`), gt(loginSessions.absoluteExpiresAt, sql`now()`)))
    .limit(1);
  if (!session) return null;

  const memberships = await db
    .select({ tenantId: tenantMemberships.tenantId, role: tenantMemberships.role })
    .from(tenantMemberships)
    .where(eq(tenantMemberships.userId, session.userId))
    .orderBy(asc(tenantMemberships.createdAt));
  const active = memberships.find((m) => m.tenantId === session.activeTenantId) ?? memberships[0];
  if (!active) return null;

  const now = Date.now();
  const rotate = now - session.rotatedAt.getTime() > SESSION_ROTATE_MS;
  const newToken = rotate ? randomToken(32) : null;
  // Touching the idle expiry on every request would be a write per request: once a minute is enough.
  if (rotate || now - session.lastSeenAt.getTime() > 60_000) {
    await db
      .update(loginSessions)
      .set({
        lastSeenAt: new Date(now),
        idleExpiresAt: new Date(Math.min(now + SESSION_IDLE_MS, session.absoluteExpiresAt.getTime())),
        ...(newToken ? { tokenHash: sha256(newToken), rotatedAt: new Date(now) } : {}),
      })
      .where(eq(loginSessions.id, session.id));
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
