import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, tenantMemberships } from '../db/schema/index.js';
import { permissionsOf, type TenantPrincipal } from '../auth/principal.js';
import { randomToken, sha256 } from '../auth/secrets.js';

export const API_KEY_PREFIX = 'gai_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

/** A new key: `gai_` + 32 random bytes in base64url (43 characters). Only its hash is stored. */
export function generateApiKey(): { secret: string; prefix: string; hash: string } {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: sha256(secret) };
}

/**
 * The principal of a bearer API key, or null. The key carries the role its creator holds in the
 * key's tenant now (a demoted or removed creator's key loses the abilities with them). Revocation
 * is a column read on every request, so it takes effect on every instance at once.
 */
export async function principalFromApiKey(db: Db, secret: string): Promise<TenantPrincipal | null> {
  if (!secret.startsWith(API_KEY_PREFIX)) return null;
  const rows = await db
    .select({ id: apiKeys.id, tenantId: apiKeys.tenantId, userId: apiKeys.userId, role: tenantMemberships.role, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(tenantMemberships, and(eq(tenantMemberships.tenantId, apiKeys.tenantId), eq(tenantMemberships.userId, apiKeys.userId)))
    .where(and(eq(apiKeys.keyHash, sha256(secret)), isNull(apiKeys.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // last_used_at is shown to people, so minute precision is enough and saves a write per request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.id));
  }
  return { kind: 'api_key', tenantId: row.tenantId, userId: row.userId, role: row.role, permissions: permissionsOf(row.role), apiKeyId: row.id };
}
