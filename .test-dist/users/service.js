import { and, asc, eq } from "drizzle-orm";
import { asSystem } from "../db/tenancy.js";
import { loginSessions, tenantMemberships, tenants, users } from "../db/schema/index.js";
import { AppError, notFound } from "../errors.js";
async function userEmail(db, userId) {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
function getMe(db, principal, activeTenantId = principal.tenantId) {
  return asSystem("tenant-directory", () => readMe(db, principal, activeTenantId));
}
async function readMe(db, principal, activeTenantId) {
  const [user] = await db.select({ id: users.id, email: users.email, displayName: users.displayName }).from(users).where(eq(users.id, principal.userId));
  if (!user) throw notFound("User");
  const rows = await db.select({ id: tenants.id, name: tenants.name, slug: tenants.slug, role: tenantMemberships.role }).from(tenantMemberships).innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId)).where(and(
    eq(tenantMemberships.userId, principal.userId),
    principal.kind === "session" ? void 0 : eq(tenantMemberships.tenantId, principal.tenantId)
  )).orderBy(asc(tenantMemberships.createdAt), asc(tenants.id));
  const active = rows.find((t) => t.id === activeTenantId);
  if (!active) throw notFound("Tenant");
  return { user, tenants: rows, activeTenant: active };
}
function updateMe(db, principal, input) {
  return asSystem("tenant-directory", () => applyMe(db, principal, input));
}
async function applyMe(db, principal, input) {
  let activeTenantId = principal.tenantId;
  if (input.activeTenantId !== void 0) {
    if (principal.kind !== "session" || !principal.sessionId) {
      throw new AppError("validation_failed", "Validation failed", [
        { path: "activeTenantId", message: "Only a login session can switch tenants; an API key is bound to its tenant" }
      ]);
    }
    const [membership] = await db.select({ tenantId: tenantMemberships.tenantId }).from(tenantMemberships).where(and(eq(tenantMemberships.userId, principal.userId), eq(tenantMemberships.tenantId, input.activeTenantId)));
    if (!membership) throw notFound("Tenant");
    await db.update(loginSessions).set({ activeTenantId: input.activeTenantId }).where(eq(loginSessions.id, principal.sessionId));
    activeTenantId = input.activeTenantId;
  }
  if (input.displayName !== void 0) {
    await db.update(users).set({ displayName: input.displayName }).where(eq(users.id, principal.userId));
  }
  return getMe(db, principal, activeTenantId);
}
export {
  getMe,
  updateMe,
  userEmail
};
