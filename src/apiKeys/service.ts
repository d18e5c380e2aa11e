import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, users } from '../db/schema/index.js';
import { generateApiKey } from './principal.js';
import { authorize, can } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { notFound } from '../errors.js';
import type { Paging } from '../http/route.js';

const keyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  userId: apiKeys.userId,
  creatorEmail: users.email,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};
export type ApiKeyRow = { id: string; name: string; prefix: string; userId: string; creatorEmail: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

/** Active keys of the tenant: every key to whom `key.listAll` allows (owners), else the caller's own. */
export async function listApiKeys(db: Db, principal: TenantPrincipal, paging: Paging): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = and(
    eq(apiKeys.tenantId, principal.tenantId),
    isNull(apiKeys.revokedAt),
    can(principal, 'key.listAll') ? undefined : eq(apiKeys.userId, principal.userId),
  );
  const [rows, [total]] = await Promise.all([
    db.select(keyColumns).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A new key of the caller, in the caller's tenant; the secret is returned once and never stored. */
export async function createApiKey(db: Db, principal: TenantPrincipal, input: { name: string }): Promise<{ key: ApiKeyRow; secret: string }> {
  const { secret, prefix, hash } = generateApiKey();
  const [inserted] = await db
    .insert(apiKeys)
    .values({ tenantId: principal.tenantId, userId: principal.userId, name: input.name, prefix, keyHash: hash })
    .returning({ id: apiKeys.id });
  return { key: await findKey(db, principal, (inserted as { id: string }).id), secret };
}

/** The key the caller authenticated with (the CLI's `whoami`); a session or OAuth token has none. */
export async function currentApiKey(db: Db, principal: TenantPrincipal): Promise<ApiKeyRow> {
  if (principal.kind !== 'api_key' || !principal.apiKeyId) throw notFound('API key');
  return findKey(db, principal, principal.apiKeyId);
}

async function findKey(db: Db, principal: TenantPrincipal, id: string): Promise<ApiKeyRow> {
  const [row] = await db
    .select(keyColumns)
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, principal.tenantId), isNull(apiKeys.revokedAt)));
  if (!row) throw notFound('API key');
  return row;
}

/** Revokes a key of the tenant (another tenant's id is "not found"); effective on every instance at once. */
export async function revokeApiKey(db: Db, principal: TenantPrincipal, id: string): Promise<ApiKeyRow> {
  const key = await findKey(db, principal, id);
  authorize(principal, 'key.revoke', key);
  const [revoked] = await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, key.id)).returning({ revokedAt: apiKeys.revokedAt });
  return { ...key, revokedAt: revoked?.revokedAt ?? new Date() };
}
