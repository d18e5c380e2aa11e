import { and, eq } from 'drizzle-orm';
import { asSystem } from '../db/tenancy.js';
import type { Db } from '../db/client.js';
import { apiKeys, tenantMemberships, tenants, users } from '../db/schema/index.js';
import { generateApiKey } from '../apiKeys/principal.js';
import type { Role, TenantPrincipal } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import { AppError } from '../errors.js';
import { EMAIL, trimBoth } from '../shared/text.js';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A URL-safe slug from a name; a numeric suffix keeps it unique. */
async function uniqueSlug(db: Db, name: string): Promise<string> {
  const base = trimBoth(name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-'), '-').slice(0, 48) || 'tenant';
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const taken = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
    if (taken.length === 0) return slug;
  }
}

/** The user of an address (lower-cased), created when there is none. */
export async function findOrCreateUser(db: Db, email: string): Promise<string> {
  const normalised = normaliseEmail(email);
  if (!EMAIL.test(normalised)) throw new AppError('validation_failed', 'Invalid e-mail address', [{ path: 'email', message: 'Invalid e-mail address' }]);
  const inserted = await db.insert(users).values({ email: normalised }).onConflictDoNothing().returning({ id: users.id });
  if (inserted[0]) return inserted[0].id;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalised));
  return (existing as { id: string }).id;
}

export interface Bootstrapped {
  tenantId: string;
  userId: string;
  apiKey?: string;
}

/** `tenant:create`: the tenant, its owner (an existing user is reused), and optionally an owner's key. */
export async function createTenant(db: Db, input: { name: string; ownerEmail: string; apiKey?: boolean }): Promise<Bootstrapped> {
  const name = input.name.trim();
  if (name === '') throw new AppError('validation_failed', 'A tenant name is required', [{ path: 'name', message: 'Required' }]);
  return db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ name, slug: await uniqueSlug(tx, name) }).returning({ id: tenants.id });
    const tenantId = (tenant as { id: string }).id;
    const userId = await findOrCreateUser(tx, input.ownerEmail);
    await tx.insert(tenantMemberships).values({ tenantId, userId, role: 'owner' });
    const result: Bootstrapped = { tenantId, userId };
    if (input.apiKey) result.apiKey = await insertKey(tx, tenantId, userId, 'bootstrap');
    return result;
  });
}

/** `user:add`: a member or owner of an existing tenant (the user is created or reused). */
export async function addUser(db: Db, input: { tenantId: string; email: string; role: Role; apiKey?: boolean }): Promise<Bootstrapped> {
  return db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, input.tenantId));
    if (!tenant) throw new AppError('not_found', 'Tenant not found');
    const userId = await findOrCreateUser(tx, input.email);
    await tx
      .insert(tenantMemberships)
      .values({ tenantId: input.tenantId, userId, role: input.role })
      .onConflictDoUpdate({ target: [tenantMemberships.tenantId, tenantMemberships.userId], set: { role: input.role } });
    const result: Bootstrapped = { tenantId: input.tenantId, userId };
    if (input.apiKey) result.apiKey = await insertKey(tx, input.tenantId, userId, 'cli');
    return result;
  });
}

export async function insertKey(db: Db, tenantId: string, userId: string, name: string): Promise<string> {
  const { secret, prefix, hash } = generateApiKey();
  await db.insert(apiKeys).values({ tenantId, userId, name, prefix, keyHash: hash });
  return secret;
}

export async function membershipOf(db: Db, tenantId: string, userId: string) {
  const [row] = await db
    .select()
    .from(tenantMemberships)
    .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)));
  return row ?? null;
}

export interface TenantView {
  id: string;
  name: string;
  slug: string;
}

/** A tenant created by a signed-in user from the web app; the creator becomes its owner. */
export async function createTenantForUser(db: Db, userId: string, name: string): Promise<TenantView> {
  // The new tenant is not the caller's current one: its first rows are written before anyone acts in it.
  return asSystem('tenant-directory', () => db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ name, slug: await uniqueSlug(tx, name) }).returning({ id: tenants.id, name: tenants.name, slug: tenants.slug });
    const created = tenant as TenantView;
    await tx.insert(tenantMemberships).values({ tenantId: created.id, userId, role: 'owner' });
    return created;
  }));
}

/**
 * Renames the caller's active tenant (another id, even one the caller also belongs to, is "not
 * found": a request acts on its active tenant only). The slug stays: links and exports name it.
 */
export async function renameTenant(db: Db, principal: TenantPrincipal, id: string, name: string): Promise<TenantView> {
  authorize(principal, 'tenant.manage');
  const { tenantId } = principal;
  if (id !== tenantId) throw new AppError('not_found', 'Tenant not found');
  const [renamed] = await db.update(tenants).set({ name }).where(eq(tenants.id, tenantId)).returning({ id: tenants.id, name: tenants.name, slug: tenants.slug });
  if (!renamed) throw new AppError('not_found', 'Tenant not found');
  return renamed;
}
