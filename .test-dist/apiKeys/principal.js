import { and, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, tenantMemberships } from "../db/schema/index.js";
import { permissionsOf } from "../auth/principal.js";
import { randomToken, sha256 } from "../auth/secrets.js";
const API_KEY_PREFIX = "gai_";
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;
function generateApiKey() {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: sha256(secret) };
}
async function principalFromApiKey(db, secret) {
  if (!secret.startsWith(API_KEY_PREFIX)) return null;
  const rows = await db.select({ id: apiKeys.id, tenantId: apiKeys.tenantId, userId: apiKeys.userId, role: tenantMemberships.role, lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).innerJoin(tenantMemberships, and(eq(tenantMemberships.tenantId, apiKeys.tenantId), eq(tenantMemberships.userId, apiKeys.userId))).where(and(eq(apiKeys.keyHash, sha256(secret)), isNull(apiKeys.revokedAt))).limit(1);
  const row = rows[0];
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 6e4) {
    await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.id));
  }
  return { kind: "api_key", tenantId: row.tenantId, userId: row.userId, role: row.role, permissions: permissionsOf(row.role), apiKeyId: row.id };
}
export {
  API_KEY_PREFIX,
  generateApiKey,
  principalFromApiKey
};
