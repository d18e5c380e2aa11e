import { and, eq } from "drizzle-orm";
import { asSystem } from "../db/tenancy.js";
import { apiKeys, tenantMemberships, tenants, users } from "../db/schema/index.js";
import { generateApiKey } from "../apiKeys/principal.js";
import { authorize } from "../auth/policies.js";
import { AppError } from "../errors.js";
function normaliseEmail(email) {
  return email.trim().toLowerCase();
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
async function uniqueSlug(db, name) {
  const base = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48) || "tenant";
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const taken = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
    if (taken.length === 0) return slug;
  }
}
async function findOrCreateUser(db, email) {
  const normalised = normaliseEmail(email);
  if (!EMAIL.test(normalised)) throw new AppError("validation_failed", "Invalid e-mail address", [{ path: "email", message: "Invalid e-mail address" }]);
  const inserted = await db.insert(users).values({ email: normalised }).onConflictDoNothing().returning({ id: users.id });
  if (inserted[0]) return inserted[0].id;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalised));
  return existing.id;
}
async function createTenant(db, input) {
  const name = input.name.trim();
  if (name === "") throw new AppError("validation_failed", "A tenant name is required", [{ path: "name", message: "Required" }]);
  return db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ name, slug: await uniqueSlug(tx, name) }).returning({ id: tenants.id });
    const tenantId = tenant.id;
    const userId = await findOrCreateUser(tx, input.ownerEmail);
    await tx.insert(tenantMemberships).values({ tenantId, userId, role: "owner" });
    const result = { tenantId, userId };
    if (input.apiKey) result.apiKey = await insertKey(tx, tenantId, userId, "bootstrap");
    return result;
  });
}
async function addUser(db, input) {
  return db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, input.tenantId));
    if (!tenant) throw new AppError("not_found", "Tenant not found");
    const userId = await findOrCreateUser(tx, input.email);
    await tx.insert(tenantMemberships).values({ tenantId: input.tenantId, userId, role: input.role }).onConflictDoUpdate({ target: [tenantMemberships.tenantId, tenantMemberships.userId], set: { role: input.role } });
    const result = { tenantId: input.tenantId, userId };
    if (input.apiKey) result.apiKey = await insertKey(tx, input.tenantId, userId, "cli");
    return result;
  });
}
async function insertKey(db, tenantId, userId, name) {
  const { secret, prefix, hash } = generateApiKey();
  await db.insert(apiKeys).values({ tenantId, userId, name, prefix, keyHash: hash });
  return secret;
}
async function membershipOf(db, tenantId, userId) {
  const [row] = await db.select().from(tenantMemberships).where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)));
  return row ?? null;
}
async function createTenantForUser(db, userId, name) {
  return asSystem("tenant-directory", () => db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ name, slug: await uniqueSlug(tx, name) }).returning({ id: tenants.id, name: tenants.name, slug: tenants.slug });
    const created = tenant;
    await tx.insert(tenantMemberships).values({ tenantId: created.id, userId, role: "owner" });
    return created;
  }));
}
async function renameTenant(db, principal, id, name) {
  authorize(principal, "tenant.manage");
  const { tenantId } = principal;
  if (id !== tenantId) throw new AppError("not_found", "Tenant not found");
  const [renamed] = await db.update(tenants).set({ name }).where(eq(tenants.id, tenantId)).returning({ id: tenants.id, name: tenants.name, slug: tenants.slug });
  if (!renamed) throw new AppError("not_found", "Tenant not found");
  return renamed;
}
export {
  addUser,
  createTenant,
  createTenantForUser,
  findOrCreateUser,
  insertKey,
  membershipOf,
  normaliseEmail,
  renameTenant
};
