import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, users } from "../db/schema/index.js";
import { generateApiKey } from "./principal.js";
import { authorize, can } from "../auth/policies.js";
import { notFound } from "../errors.js";
const keyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  userId: apiKeys.userId,
  creatorEmail: users.email,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt
};
async function listApiKeys(db, principal, paging) {
  const where = and(
    eq(apiKeys.tenantId, principal.tenantId),
    isNull(apiKeys.revokedAt),
    can(principal, "key.listAll") ? void 0 : eq(apiKeys.userId, principal.userId)
  );
  const [rows, [total]] = await Promise.all([
    db.select(keyColumns).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(apiKeys).where(where)
  ]);
  return { rows, total: total?.n ?? 0 };
}
async function createApiKey(db, principal, input) {
  const { secret, prefix, hash } = generateApiKey();
  const [inserted] = await db.insert(apiKeys).values({ tenantId: principal.tenantId, userId: principal.userId, name: input.name, prefix, keyHash: hash }).returning({ id: apiKeys.id });
  return { key: await findKey(db, principal, inserted.id), secret };
}
async function currentApiKey(db, principal) {
  if (principal.kind !== "api_key" || !principal.apiKeyId) throw notFound("API key");
  return findKey(db, principal, principal.apiKeyId);
}
async function findKey(db, principal, id) {
  const [row] = await db.select(keyColumns).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, principal.tenantId), isNull(apiKeys.revokedAt)));
  if (!row) throw notFound("API key");
  return row;
}
async function revokeApiKey(db, principal, id) {
  const key = await findKey(db, principal, id);
  authorize(principal, "key.revoke", key);
  const [revoked] = await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, key.id)).returning({ revokedAt: apiKeys.revokedAt });
  return { ...key, revokedAt: revoked?.revokedAt ?? /* @__PURE__ */ new Date() };
}
export {
  createApiKey,
  currentApiKey,
  listApiKeys,
  revokeApiKey
};
