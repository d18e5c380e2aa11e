import { and, asc, eq, gt, sql } from "drizzle-orm";
import { permissionsOf } from "../auth/principal.js";
import { mcpGrants, tenantMemberships, tenants } from "../db/schema/index.js";
async function tenantsOfUser(db, userId) {
  return db.select({ tenantId: tenants.id, name: tenants.name, role: tenantMemberships.role }).from(tenantMemberships).innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId)).where(eq(tenantMemberships.userId, userId)).orderBy(asc(tenantMemberships.createdAt));
}
async function roleIn(db, tenantId, userId) {
  const [row] = await db.select({ role: tenantMemberships.role }).from(tenantMemberships).where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId))).limit(1);
  return row?.role ?? null;
}
async function recordGrant(db, grant) {
  await db.insert(mcpGrants).values(grant);
}
async function propsOfGrant(db, grantId) {
  const [row] = await db.select({ tenantId: mcpGrants.tenantId, userId: mcpGrants.userId, permissions: mcpGrants.permissions }).from(mcpGrants).where(and(eq(mcpGrants.grantId, grantId), gt(mcpGrants.expiresAt, sql`now()`))).limit(1);
  if (!row) return null;
  const role = await roleIn(db, row.tenantId, row.userId);
  if (!role) return null;
  const allowed = new Set(permissionsOf(role));
  return { tenantId: row.tenantId, userId: row.userId, permissions: row.permissions.filter((p) => allowed.has(p)) };
}
async function principalFromProps(db, props) {
  if (!props || typeof props.tenantId !== "string" || typeof props.userId !== "string" || !Array.isArray(props.permissions)) return null;
  const role = await roleIn(db, props.tenantId, props.userId);
  if (!role) return null;
  const allowed = new Set(permissionsOf(role));
  return {
    kind: "oauth",
    tenantId: props.tenantId,
    userId: props.userId,
    role,
    permissions: props.permissions.filter((p) => allowed.has(p))
  };
}
export {
  principalFromProps,
  propsOfGrant,
  recordGrant,
  roleIn,
  tenantsOfUser
};
