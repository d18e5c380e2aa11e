import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { integrationConnections, issues, staleIntegrations, trackerDeletedIssues, trackerSyncs } from "../../db/schema/index.js";
import { upsertTrackerIssues } from "../../webhooks/service.js";
import { settingsOf, toIssueWebhook } from "./mapping.js";
const externalIdOf = (connection, trackerId) => connection.kind === "jira" ? `${connection.externalId}:${trackerId}` : trackerId;
async function applyPage(database, connection, found, deleted = []) {
  const { db } = database;
  const kind = connection.kind;
  const settings = settingsOf(connection.settings);
  const byId = new Map(found.map((i) => [externalIdOf(connection, i.id), i]));
  if (deleted.length > 0) await markDeleted(db, connection, deleted);
  const ids = [...byId.keys()];
  const gone = ids.length === 0 ? [] : await db.select({ externalId: trackerDeletedIssues.externalId }).from(trackerDeletedIssues).where(and(eq(trackerDeletedIssues.tenantId, connection.tenantId), eq(trackerDeletedIssues.provider, kind), inArray(trackerDeletedIssues.externalId, ids)));
  for (const g of gone) byId.delete(g.externalId);
  const inputs = [...byId.values()].map((i) => toIssueWebhook(kind, connection.externalId, i, settings));
  await upsertTrackerIssues(database.pool, connection.tenantId, kind, inputs);
  return inputs.length;
}
async function markDeleted(db, connection, trackerIds) {
  if (trackerIds.length === 0) return;
  const kind = connection.kind;
  const externalIds = trackerIds.map((id) => externalIdOf(connection, id));
  await db.transaction(async (tx) => {
    await tx.insert(trackerDeletedIssues).values(externalIds.map((externalId) => ({ tenantId: connection.tenantId, provider: kind, externalId }))).onConflictDoNothing();
    await tx.delete(issues).where(and(eq(issues.tenantId, connection.tenantId), eq(issues.provider, kind), inArray(issues.externalId, externalIds)));
  });
}
async function sweepableIssues(db, connection, before) {
  if (connection.kind !== "jira") return { trackerIds: [], oldest: null };
  const prefix = `${connection.externalId}:`;
  const rows = await db.select({ externalId: issues.externalId, createdAt: issues.createdAt }).from(issues).where(and(eq(issues.tenantId, connection.tenantId), eq(issues.provider, "jira"), sql`starts_with(${issues.externalId}, ${prefix})`, lt(issues.receivedAt, before)));
  let oldest = null;
  for (const r of rows) if (!oldest || r.createdAt < oldest) oldest = r.createdAt;
  return { trackerIds: rows.map((r) => r.externalId.slice(prefix.length)), oldest };
}
async function takeLease(db, connection, jobId, seconds) {
  await db.insert(trackerSyncs).values({ connectionId: connection.id, tenantId: connection.tenantId }).onConflictDoNothing();
  const until = sql`now() + make_interval(secs => ${seconds})`;
  const [row] = await db.update(trackerSyncs).set({ leaseJobId: jobId, leaseUntil: until, updatedAt: sql`now()` }).where(and(eq(trackerSyncs.connectionId, connection.id), or(isNull(trackerSyncs.leaseJobId), eq(trackerSyncs.leaseJobId, jobId), lt(trackerSyncs.leaseUntil, sql`now()`)))).returning();
  return row ?? null;
}
async function saveCursor(db, connectionId, jobId, cursor, done, leaseSeconds) {
  await db.update(trackerSyncs).set({ cursorJobId: jobId, cursor, done, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, updatedAt: sql`now()` }).where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}
async function finishSync(db, connectionId, jobId, watermark) {
  await db.update(trackerSyncs).set({ ...watermark ? { updatedSince: watermark } : {}, cursor: null, cursorJobId: null, leaseJobId: null, leaseUntil: null, updatedAt: sql`now()` }).where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}
async function releaseLease(db, connectionId, jobId) {
  await db.update(trackerSyncs).set({ leaseJobId: null, leaseUntil: null }).where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}
async function setWebhook(db, connection, webhook) {
  await db.insert(trackerSyncs).values({ connectionId: connection.id, tenantId: connection.tenantId, webhook }).onConflictDoUpdate({ target: trackerSyncs.connectionId, set: { webhook, updatedAt: sql`now()` } });
}
async function syncRowOf(db, connectionId) {
  const [row] = await db.select().from(trackerSyncs).where(eq(trackerSyncs.connectionId, connectionId));
  return row ?? null;
}
async function connectionsForSite(db, kind, externalId) {
  return db.select().from(integrationConnections).where(and(eq(integrationConnections.kind, kind), eq(integrationConnections.externalId, externalId)));
}
async function flagStale(db, connection, stale) {
  const kind = `${connection.kind}_connection`;
  if (!stale) {
    await db.delete(staleIntegrations).where(and(eq(staleIntegrations.kind, kind), eq(staleIntegrations.ref, connection.id)));
    return;
  }
  await db.insert(staleIntegrations).values({ kind, ref: connection.id, tenantId: connection.tenantId, lastActivityAt: connection.lastSyncAt }).onConflictDoUpdate({ target: [staleIntegrations.kind, staleIntegrations.ref], set: { lastActivityAt: connection.lastSyncAt } });
}
export {
  applyPage,
  connectionsForSite,
  externalIdOf,
  finishSync,
  flagStale,
  markDeleted,
  releaseLease,
  saveCursor,
  setWebhook,
  sweepableIssues,
  syncRowOf,
  takeLease
};
