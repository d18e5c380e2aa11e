/**
 * Writing what a tracker sends: issues through the webhook API's statement (src/webhooks/
 * service.ts `upsertTrackerIssues`), deletions as a mark plus removal from `issues`, and the
 * per-connection sync bookkeeping (`tracker_syncs`).
 */
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { integrationConnections, issues, staleIntegrations, trackerDeletedIssues, trackerSyncs } from '../../db/schema/index.js';
import { upsertTrackerIssues } from '../../webhooks/service.js';
import type { Connection } from '../shared/connections.js';
import { settingsOf, toIssueWebhook } from './mapping.js';
import type { TrackerIssue, TrackerKind } from './types.js';

/** Our externalId of a tracker issue id (Jira ids repeat across sites, so they carry the site). */
export const externalIdOf = (connection: Pick<Connection, 'kind' | 'externalId'>, trackerId: string) =>
  connection.kind === 'jira' ? `${connection.externalId}:${trackerId}` : trackerId;

/** Upserts the issues of one page (deleted ones excepted) and removes the deleted ones; returns how many were written. */
export async function applyPage(database: Pick<Database, 'db' | 'pool'>, connection: Connection, found: TrackerIssue[], deleted: string[] = []): Promise<number> {
  const { db } = database;
  const kind = connection.kind as TrackerKind;
  const settings = settingsOf(connection.settings);
  const byId = new Map(found.map((i) => [externalIdOf(connection, i.id), i]));
  if (deleted.length > 0) await markDeleted(db, connection, deleted);
  const ids = [...byId.keys()];
  const gone = ids.length === 0 ? [] : await db
    .select({ externalId: trackerDeletedIssues.externalId })
    .from(trackerDeletedIssues)
    .where(and(eq(trackerDeletedIssues.tenantId, connection.tenantId), eq(trackerDeletedIssues.provider, kind), inArray(trackerDeletedIssues.externalId, ids)));
  for (const g of gone) byId.delete(g.externalId);
  const inputs = [...byId.values()].map((i) => toIssueWebhook(kind, connection.externalId, i, settings));
  await upsertTrackerIssues(database.pool, connection.tenantId, kind, inputs);
  return inputs.length;
}

/** The tracker deleted these issues: marked, and removed from `issues` so they leave every measure. */
export async function markDeleted(db: Db, connection: Connection, trackerIds: string[]): Promise<void> {
  if (trackerIds.length === 0) return;
  const kind = connection.kind as TrackerKind;
  const externalIds = trackerIds.map((id) => externalIdOf(connection, id));
  await db.transaction(async (tx) => {
    await tx.insert(trackerDeletedIssues).values(externalIds.map((externalId) => ({ tenantId: connection.tenantId, provider: kind, externalId }))).onConflictDoNothing();
    await tx.delete(issues).where(and(eq(issues.tenantId, connection.tenantId), eq(issues.provider, kind), inArray(issues.externalId, externalIds)));
  });
}

/**
 * The tracker ids of this connection's issues received before `before` (one received later may be
 * newer than the sweep's listing), and the oldest creation time among them. Only a Jira externalId
 * names its site (`<cloudId>:<id>`); for another tracker this answers nothing.
 */
export async function sweepableIssues(db: Db, connection: Connection, before: Date): Promise<{ trackerIds: string[]; oldest: Date | null }> {
  if (connection.kind !== 'jira') return { trackerIds: [], oldest: null };
  const prefix = `${connection.externalId}:`;
  const rows = await db
    .select({ externalId: issues.externalId, createdAt: issues.createdAt })
    .from(issues)
    .where(and(eq(issues.tenantId, connection.tenantId), eq(issues.provider, 'jira'), sql`starts_with(${issues.externalId}, ${prefix})`, lt(issues.receivedAt, before)));
  let oldest: Date | null = null;
  for (const r of rows) if (!oldest || r.createdAt < oldest) oldest = r.createdAt;
  return { trackerIds: rows.map((r) => r.externalId.slice(prefix.length)), oldest };
}

export type SyncRow = typeof trackerSyncs.$inferSelect;

/**
 * Takes the connection's sync lease for `jobId` (or renews it). Null when another job holds an
 * unexpired lease: two syncs of one connection never run at once.
 */
export async function takeLease(db: Db, connection: Connection, jobId: string, seconds: number): Promise<SyncRow | null> {
  await db.insert(trackerSyncs).values({ connectionId: connection.id, tenantId: connection.tenantId }).onConflictDoNothing();
  const until = sql`now() + make_interval(secs => ${seconds})`;
  const [row] = await db
    .update(trackerSyncs)
    .set({ leaseJobId: jobId, leaseUntil: until, updatedAt: sql`now()` })
    .where(and(eq(trackerSyncs.connectionId, connection.id), or(isNull(trackerSyncs.leaseJobId), eq(trackerSyncs.leaseJobId, jobId), lt(trackerSyncs.leaseUntil, sql`now()`))))
    .returning();
  return row ?? null;
}

/** After each page: where the job is, so a retry of the same job resumes at the next page. */
export async function saveCursor(db: Db, connectionId: string, jobId: string, cursor: Record<string, unknown>, done: number, leaseSeconds: number): Promise<void> {
  await db
    .update(trackerSyncs)
    .set({ cursorJobId: jobId, cursor, done, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, updatedAt: sql`now()` })
    .where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}

/** The run finished: the watermark moves to when it started, the cursor and lease are cleared. */
export async function finishSync(db: Db, connectionId: string, jobId: string, watermark: Date | null): Promise<void> {
  await db
    .update(trackerSyncs)
    .set({ ...(watermark ? { updatedSince: watermark } : {}), cursor: null, cursorJobId: null, leaseJobId: null, leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}

export async function releaseLease(db: Db, connectionId: string, jobId: string): Promise<void> {
  await db.update(trackerSyncs).set({ leaseJobId: null, leaseUntil: null }).where(and(eq(trackerSyncs.connectionId, connectionId), eq(trackerSyncs.leaseJobId, jobId)));
}

export async function setWebhook(db: Db, connection: Connection, webhook: Record<string, unknown> | null): Promise<void> {
  await db.insert(trackerSyncs).values({ connectionId: connection.id, tenantId: connection.tenantId, webhook }).onConflictDoUpdate({ target: trackerSyncs.connectionId, set: { webhook, updatedAt: sql`now()` } });
}

export async function syncRowOf(db: Db, connectionId: string): Promise<SyncRow | null> {
  const [row] = await db.select().from(trackerSyncs).where(eq(trackerSyncs.connectionId, connectionId));
  return row ?? null;
}

/** Every tenant's connections of a tracker whose site or workspace is this one (inbound webhooks; asSystem('inbound-routing')). */
export async function connectionsForSite(db: Db, kind: TrackerKind, externalId: string): Promise<Connection[]> {
  return db.select().from(integrationConnections).where(and(eq(integrationConnections.kind, kind), eq(integrationConnections.externalId, externalId)));
}

/**
 * The stale-integration flag (table stale_integrations, kind `<tracker>_connection`, ref the
 * connection id) of a connection whose grant the vendor refused; cleared by a reconnect or a
 * disconnect. The configuration report counts these flags.
 */
export async function flagStale(db: Db, connection: Connection, stale: boolean): Promise<void> {
  const kind = `${connection.kind}_connection`;
  if (!stale) {
    await db.delete(staleIntegrations).where(and(eq(staleIntegrations.kind, kind), eq(staleIntegrations.ref, connection.id)));
    return;
  }
  await db
    .insert(staleIntegrations)
    .values({ kind, ref: connection.id, tenantId: connection.tenantId, lastActivityAt: connection.lastSyncAt })
    .onConflictDoUpdate({ target: [staleIntegrations.kind, staleIntegrations.ref], set: { lastActivityAt: connection.lastSyncAt } });
}
