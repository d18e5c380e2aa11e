import { and, asc, eq } from 'drizzle-orm';
import { asSystem } from '../db/tenancy.js';
import type { Db } from '../db/client.js';
import { loginSessions, tenantMemberships, tenants, users } from '../db/schema/index.js';
import { allowedActions, type TenantAction } from '../auth/policies.js';
import type { Role, TenantPrincipal } from '../auth/principal.js';
import { AppError, notFound } from '../errors.js';

export interface Membership {
  id: string;
  name: string;
  slug: string;
  role: Role;
}

export interface Me {
  user: { id: string; email: string; displayName: string | null };
  tenants: Membership[];
  activeTenant: Membership;
  /** The tenant actions the caller may take in the active tenant (policies.ts decides). */
  actions: TenantAction[];
}

export async function userEmail(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/**
 * The caller, the tenants they may act in and the one they act in now. A login session sees every
 * tenant of the user (it can switch between them); an API key or access token is bound to one
 * tenant, so it sees only that one and reveals nothing about the user's other tenants.
 */
export function getMe(db: Db, principal: TenantPrincipal, activeTenantId = principal.tenantId): Promise<Me> {
  // The user's own memberships, in every tenant: the tenant switcher lists them.
  return asSystem('tenant-directory', () => readMe(db, principal, activeTenantId));
}

async function readMe(db: Db, principal: TenantPrincipal, activeTenantId: string): Promise<Me> {
  const [user] = await db.select({ id: users.id, email: users.email, displayName: users.displayName }).from(users).where(eq(users.id, principal.userId));
  if (!user) throw notFound('User');
  const rows = await db
    .select({ id: tenants.id, name: tenants.name, slug: tenants.slug, role: tenantMemberships.role })
    .from(tenantMemberships)
    .innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId))
    .where(and(
      eq(tenantMemberships.userId, principal.userId),
      principal.kind === 'session' ? undefined : eq(tenantMemberships.tenantId, principal.tenantId),
    ))
    .orderBy(asc(tenantMemberships.createdAt), asc(tenants.id));
  const active = rows.find((t) => t.id === activeTenantId);
  if (!active) throw notFound('Tenant');
  // After a switch the session acts in the other tenant, with its role there.
  const actor = active.id === principal.tenantId ? principal : { ...principal, tenantId: active.id, role: active.role };
  return { user, tenants: rows, activeTenant: active, actions: allowedActions(actor) };
}

/**
 * Updates the caller's display name (null clears it) and, for a login session, which tenant the
 * session acts in; a tenant the user does not belong to is "not found".
 */
export function updateMe(db: Db, principal: TenantPrincipal, input: { displayName?: string | null; activeTenantId?: string }): Promise<Me> {
  // Switching checks the user's membership of the tenant switched to, which is not the current one.
  return asSystem('tenant-directory', () => applyMe(db, principal, input));
}

async function applyMe(db: Db, principal: TenantPrincipal, input: { displayName?: string | null; activeTenantId?: string }): Promise<Me> {
  let activeTenantId = principal.tenantId;
  if (input.activeTenantId !== undefined) {
    if (principal.kind !== 'session' || !principal.sessionId) {
      throw new AppError('validation_failed', 'Validation failed', [
        { path: 'activeTenantId', message: 'Only a login session can switch tenants; an API key is bound to its tenant' },
      ]);
    }
    const [membership] = await db
      .select({ tenantId: tenantMemberships.tenantId })
      .from(tenantMemberships)
      .where(and(eq(tenantMemberships.userId, principal.userId), eq(tenantMemberships.tenantId, input.activeTenantId)));
    if (!membership) throw notFound('Tenant');
    await db.update(loginSessions).set({ activeTenantId: input.activeTenantId }).where(eq(loginSessions.id, principal.sessionId));
    activeTenantId = input.activeTenantId;
  }
  if (input.displayName !== undefined) {
    await db.update(users).set({ displayName: input.displayName }).where(eq(users.id, principal.userId));
  }
  return getMe(db, principal, activeTenantId);
}
