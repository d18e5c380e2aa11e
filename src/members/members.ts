/**
 * The people of a tenant and their roles. Every query is floored on the caller's tenant, so a user
 * who is not in it is "not found", whoever they are elsewhere. A tenant always keeps an owner: the
 * owners' rows are locked while a change is checked, so two owners demoting each other at the same
 * moment cannot both succeed.
 */
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, loginSessions, tenantMemberships, users } from '../db/schema/index.js';
import { authorize } from '../auth/policies.js';
import type { Role, TenantPrincipal } from '../auth/principal.js';
import { AppError, notFound } from '../errors.js';
import type { Paging } from '../http/route.js';

export interface MemberRow {
  userId: string;
  email: string;
  displayName: string | null;
  role: Role;
  joinedAt: Date;
}

const memberColumns = {
  userId: users.id,
  email: users.email,
  displayName: users.displayName,
  role: tenantMemberships.role,
  joinedAt: tenantMemberships.createdAt,
};

const inTenant = (tenantId: string) => eq(tenantMemberships.tenantId, tenantId);

/** Everyone in the caller's tenant, oldest membership first. Any member may list (docs/auth.md). */
export async function listMembers(db: Db, principal: TenantPrincipal, paging: Paging): Promise<{ rows: MemberRow[]; total: number }> {
  authorize(principal, 'member.list');
  const [rows, [total]] = await Promise.all([
    db.select(memberColumns).from(tenantMemberships).innerJoin(users, eq(users.id, tenantMemberships.userId))
      .where(inTenant(principal.tenantId)).orderBy(asc(tenantMemberships.createdAt), asc(users.id))
      .limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(tenantMemberships).where(inTenant(principal.tenantId)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

async function findMember(db: Db, tenantId: string, userId: string): Promise<MemberRow> {
  const [row] = await db.select(memberColumns).from(tenantMemberships).innerJoin(users, eq(users.id, tenantMemberships.userId))
    .where(and(inTenant(tenantId), eq(tenantMemberships.userId, userId)));
  if (!row) throw notFound('Member');
  return row;
}

/** Locks the tenant's owner rows (until the transaction ends) and returns their user ids. */
async function lockOwners(tx: Db, tenantId: string): Promise<string[]> {
  const rows = await tx.select({ userId: tenantMemberships.userId }).from(tenantMemberships)
    .where(and(inTenant(tenantId), eq(tenantMemberships.role, 'owner'))).for('update');
  return rows.map((r) => r.userId);
}

function refuseLastOwner(owners: string[], userId: string, action: 'remove' | 'demote'): void {
  if (owners.length === 1 && owners[0] === userId) {
    throw new AppError('last_owner', `This is the tenant's last owner and cannot be ${action === 'remove' ? 'removed' : 'made a member'}; make someone else an owner first`);
  }
}

/** Sets a member's role (owner only); demoting the last owner is a 409 `last_owner`. */
export async function changeMemberRole(db: Db, principal: TenantPrincipal, userId: string, role: Role): Promise<MemberRow> {
  return db.transaction(async (t) => {
    const member = await findMember(t, principal.tenantId, userId);
    authorize(principal, 'member.manage');
    if (member.role === role) return member;
    if (role !== 'owner') refuseLastOwner(await lockOwners(t, principal.tenantId), userId, 'demote');
    await t.update(tenantMemberships).set({ role }).where(and(inTenant(principal.tenantId), eq(tenantMemberships.userId, userId)));
    return { ...member, role };
  });
}

/**
 * Removes someone from the tenant (owner only; the last owner is a 409 `last_owner`). Their API keys
 * of this tenant are revoked with them, so that inviting them again later does not bring old keys
 * back to life; their sessions move to another tenant of theirs, or end when they have none.
 */
export async function removeMember(db: Db, principal: TenantPrincipal, userId: string): Promise<MemberRow> {
  return db.transaction(async (t) => {
    const member = await findMember(t, principal.tenantId, userId);
    authorize(principal, 'member.manage');
    if (member.role === 'owner') refuseLastOwner(await lockOwners(t, principal.tenantId), userId, 'remove');
    await t.delete(tenantMemberships).where(and(inTenant(principal.tenantId), eq(tenantMemberships.userId, userId)));
    await t.update(apiKeys).set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.tenantId, principal.tenantId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    await t.update(loginSessions).set({ activeTenantId: null })
      .where(and(eq(loginSessions.userId, userId), eq(loginSessions.activeTenantId, principal.tenantId)));
    return member;
  });
}
