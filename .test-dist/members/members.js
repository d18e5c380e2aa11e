import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, loginSessions, tenantMemberships, users } from "../db/schema/index.js";
import { authorize } from "../auth/policies.js";
import { AppError, notFound } from "../errors.js";
const memberColumns = {
  userId: users.id,
  email: users.email,
  displayName: users.displayName,
  role: tenantMemberships.role,
  joinedAt: tenantMemberships.createdAt
};
const inTenant = (tenantId) => eq(tenantMemberships.tenantId, tenantId);
async function listMembers(db, principal, paging) {
  authorize(principal, "member.list");
  const [rows, [total]] = await Promise.all([
    db.select(memberColumns).from(tenantMemberships).innerJoin(users, eq(users.id, tenantMemberships.userId)).where(inTenant(principal.tenantId)).orderBy(asc(tenantMemberships.createdAt), asc(users.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(tenantMemberships).where(inTenant(principal.tenantId))
  ]);
  return { rows, total: total?.n ?? 0 };
}
async function findMember(db, tenantId, userId) {
  const [row] = await db.select(memberColumns).from(tenantMemberships).innerJoin(users, eq(users.id, tenantMemberships.userId)).where(and(inTenant(tenantId), eq(tenantMemberships.userId, userId)));
  if (!row) throw notFound("Member");
  return row;
}
async function lockOwners(tx, tenantId) {
  const rows = await tx.select({ userId: tenantMemberships.userId }).from(tenantMemberships).where(and(inTenant(tenantId), eq(tenantMemberships.role, "owner"))).for("update");
  return rows.map((r) => r.userId);
}
function refuseLastOwner(owners, userId, action) {
  if (owners.length === 1 && owners[0] === userId) {
    throw new AppError("last_owner", `This is the tenant's last owner and cannot be ${action === "remove" ? "removed" : "made a member"}; make someone else an owner first`);
  }
}
async function changeMemberRole(db, principal, userId, role) {
  return db.transaction(async (t) => {
    const member = await findMember(t, principal.tenantId, userId);
    authorize(principal, "member.manage");
    if (member.role === role) return member;
    if (role !== "owner") refuseLastOwner(await lockOwners(t, principal.tenantId), userId, "demote");
    await t.update(tenantMemberships).set({ role }).where(and(inTenant(principal.tenantId), eq(tenantMemberships.userId, userId)));
    return { ...member, role };
  });
}
async function removeMember(db, principal, userId) {
  return db.transaction(async (t) => {
    const member = await findMember(t, principal.tenantId, userId);
    authorize(principal, "member.manage");
    if (member.role === "owner") refuseLastOwner(await lockOwners(t, principal.tenantId), userId, "remove");
    await t.delete(tenantMemberships).where(and(inTenant(principal.tenantId), eq(tenantMemberships.userId, userId)));
    await t.update(apiKeys).set({ revokedAt: sql`now()` }).where(and(eq(apiKeys.tenantId, principal.tenantId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    await t.update(loginSessions).set({ activeTenantId: null }).where(and(eq(loginSessions.userId, userId), eq(loginSessions.activeTenantId, principal.tenantId)));
    return member;
  });
}
export {
  changeMemberRole,
  listMembers,
  removeMember
};
