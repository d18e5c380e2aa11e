import { and, eq, inArray, sql } from "drizzle-orm";
import { hkdfSync } from "node:crypto";
import { integrationConnections } from "../../db/schema/index.js";
import { open, seal } from "../../oauth/crypto.js";
const keys = /* @__PURE__ */ new WeakMap();
function tokenKey(master) {
  let key = keys.get(master);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "delivery-analytics/integration-tokens", 32));
    keys.set(master, key);
  }
  return key;
}
const aadOf = (c, which) => `${c.tenantId}
${c.kind}
${c.externalId}
${which}`;
function sealTokens(master, c) {
  const key = tokenKey(master);
  return {
    accessTokenSealed: seal(key, c.accessToken, aadOf(c, "access")),
    refreshTokenSealed: c.refreshToken === null ? null : seal(key, c.refreshToken, aadOf(c, "refresh")),
    tokenExpiresAt: c.expiresAt
  };
}
async function saveConnection(db, master, c) {
  const sealed = sealTokens(master, c);
  const [row] = await db.insert(integrationConnections).values({ ...sealed, tenantId: c.tenantId, kind: c.kind, externalId: c.externalId, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy, settings: c.settings ?? {} }).onConflictDoUpdate({
    target: [integrationConnections.tenantId, integrationConnections.kind, integrationConnections.externalId],
    set: { ...sealed, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy, state: "active", stateDetail: null, lastError: null, updatedAt: sql`now()` }
  }).returning();
  return row;
}
function tokensOf(master, c) {
  const key = tokenKey(master);
  return {
    accessToken: open(key, c.accessTokenSealed, aadOf(c, "access")),
    refreshToken: c.refreshTokenSealed === null ? null : open(key, c.refreshTokenSealed, aadOf(c, "refresh")),
    expiresAt: c.tokenExpiresAt
  };
}
async function replaceTokens(db, master, c, tokens) {
  const sealed = sealTokens(master, { ...c, ...tokens, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy });
  await db.update(integrationConnections).set({ ...sealed, updatedAt: sql`now()` }).where(eq(integrationConnections.id, c.id));
}
async function connectionsOf(db, tenantId, kind) {
  return db.select().from(integrationConnections).where(and(eq(integrationConnections.tenantId, tenantId), kind ? eq(integrationConnections.kind, kind) : void 0)).orderBy(integrationConnections.kind, integrationConnections.createdAt);
}
async function activeConnections(db, kinds, tenantId) {
  return db.select().from(integrationConnections).where(and(
    inArray(integrationConnections.kind, typeof kinds === "string" ? [kinds] : [...kinds]),
    eq(integrationConnections.state, "active"),
    tenantId === void 0 ? void 0 : eq(integrationConnections.tenantId, tenantId)
  )).orderBy(integrationConnections.createdAt, integrationConnections.id);
}
async function connectionById(db, tenantId, id) {
  const [row] = await db.select().from(integrationConnections).where(and(eq(integrationConnections.tenantId, tenantId), eq(integrationConnections.id, id)));
  return row ?? null;
}
async function connectionByExternalId(db, kind, externalId) {
  const [row] = await db.select().from(integrationConnections).where(and(eq(integrationConnections.kind, kind), eq(integrationConnections.externalId, externalId))).limit(1);
  return row ?? null;
}
async function setConnectionState(db, id, state, detail) {
  await db.update(integrationConnections).set({ state, stateDetail: detail, updatedAt: sql`now()` }).where(eq(integrationConnections.id, id));
}
async function updateSettings(db, id, settings) {
  await db.update(integrationConnections).set({ settings, updatedAt: sql`now()` }).where(eq(integrationConnections.id, id));
}
async function recordSync(db, id, error) {
  await db.update(integrationConnections).set(error === null ? { lastSyncAt: sql`now()`, lastError: null, updatedAt: sql`now()` } : { lastError: error.slice(0, 500), updatedAt: sql`now()` }).where(eq(integrationConnections.id, id));
}
async function deleteConnection(db, tenantId, id) {
  const rows = await db.delete(integrationConnections).where(and(eq(integrationConnections.tenantId, tenantId), eq(integrationConnections.id, id))).returning({ id: integrationConnections.id });
  return rows.length > 0;
}
function presentConnection(c) {
  return {
    id: c.id,
    kind: c.kind,
    externalId: c.externalId,
    displayName: c.displayName,
    state: c.state,
    stateDetail: c.stateDetail,
    lastSyncAt: c.lastSyncAt?.toISOString() ?? null,
    lastError: c.lastError,
    settings: c.settings,
    createdAt: c.createdAt.toISOString()
  };
}
export {
  activeConnections,
  connectionByExternalId,
  connectionById,
  connectionsOf,
  deleteConnection,
  presentConnection,
  recordSync,
  replaceTokens,
  saveConnection,
  setConnectionState,
  tokenKey,
  tokensOf,
  updateSettings
};
