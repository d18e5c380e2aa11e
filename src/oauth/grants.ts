import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { permissionsOf, type Permission, type Role, type TenantPrincipal } from '../auth/principal.js';
import type { Db } from '../db/client.js';
import { mcpGrants, tenantMemberships, tenants } from '../db/schema/index.js';

export interface TenantChoice {
  tenantId: string;
  name: string;
  role: Role;
}

/** The tenants a user may pick on the consent page, oldest membership first. */
export async function tenantsOfUser(db: Db, userId: string): Promise<TenantChoice[]> {
  return db
    .select({ tenantId: tenants.id, name: tenants.name, role: tenantMemberships.role })
    .from(tenantMemberships)
    .innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId))
    .where(eq(tenantMemberships.userId, userId))
    .orderBy(asc(tenantMemberships.createdAt));
}

export async function roleIn(db: Db, tenantId: string, userId: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: tenantMemberships.role })
    .from(tenantMemberships)
    .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}

export async function recordGrant(
  db: Db,
  grant: { grantId: string; tenantId: string; userId: string; clientId: string; permissions: Permission[]; expiresAt: Date },
): Promise<void> {
  await db.insert(mcpGrants).values(grant);
}

/** What an access token carries (opaque token `extra`, never shown to the client). */
export interface OAuthProps {
  tenantId: string;
  userId: string;
  permissions: Permission[];
}

/**
 * The props of a grant, if the grant is still bound and the user is still a member of the tenant
 * chosen at consent. Permissions never exceed what the user's current role gives.
 */
export async function propsOfGrant(db: Db, grantId: string): Promise<OAuthProps | null> {
  const [row] = await db
    .select({ tenantId: mcpGrants.tenantId, userId: mcpGrants.userId, permissions: mcpGrants.permissions })
    .from(mcpGrants)
    .where(and(eq(mcpGrants.grantId, grantId), gt(mcpGrants.expiresAt, sql`now()`)))
    .limit(1);
  if (!row) return null;
  const role = await roleIn(db, row.tenantId, row.userId);
  if (!role) return null;
  const allowed = new Set(permissionsOf(role));
  return { tenantId: row.tenantId, userId: row.userId, permissions: (row.permissions as Permission[]).filter((p) => allowed.has(p)) };
}

/** The principal of an OAuth access token's props; membership is checked again on every request. */
export async function principalFromProps(db: Db, props: Partial<OAuthProps> | undefined): Promise<TenantPrincipal | null> {
  if (!props || typeof props.tenantId !== 'string' || typeof props.userId !== 'string' || !Array.isArray(props.permissions)) return null;
  const role = await roleIn(db, props.tenantId, props.userId);
  if (!role) return null;
  const allowed = new Set(permissionsOf(role));
  return {
    kind: 'oauth',
    tenantId: props.tenantId,
    userId: props.userId,
    role,
    permissions: props.permissions.filter((p) => allowed.has(p)),
  };
}
