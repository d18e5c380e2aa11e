import { z } from "zod";
import { defineWorkflow } from "../../jobs/define.js";
import { connectionById, recordSync } from "../shared/connections.js";
import { settingsOf } from "./mapping.js";
import { applyPage, finishSync, markDeleted, releaseLease, saveCursor, setWebhook, sweepableIssues, syncRowOf, takeLease } from "./store.js";
import { TrackerGrantRefused, TrackerRateLimited, TrackerUnavailable, TRACKER_KINDS } from "./types.js";
import { TRACKER_NAMES, trackerAppOf, VENDORS, webhookSecretOf, webhookUrlOf } from "./vendors.js";
import { withAccess } from "./grant.js";
import { Uuid } from "../../shared/schemas.js";
const SyncPayload = z.object({
  tenantId: Uuid,
  connectionId: Uuid,
  kind: z.enum(TRACKER_KINDS),
  /** `sweep`: an incremental run, then the id sweep that finds deletes whose webhook was lost. */
  mode: z.enum(["backfill", "incremental", "sweep"])
});
const LEASE_SECONDS = 15 * 60;
const OVERLAP_MS = 10 * 6e4;
const MAX_WAIT_SECONDS = 120;
const MAX_RATE_LIMITS = 8;
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
async function patiently(ctx, call) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof TrackerRateLimited) || attempt >= MAX_RATE_LIMITS) throw error;
      await sleep(Math.min(error.retryAfterSeconds, MAX_WAIT_SECONDS) * 1e3, ctx.signal);
    }
  }
}
async function loadConnection(ctx, p) {
  const connection = await connectionById(ctx.app.database.db, p.tenantId, p.connectionId);
  return connection && connection.kind === p.kind && connection.state === "active" ? connection : null;
}
async function runPages(ctx, p) {
  const { db } = ctx.app.database;
  const master = ctx.app.config.oauthEncryptionKey;
  const app = trackerAppOf(ctx.app.config, p.kind);
  let connection = await loadConnection(ctx, p);
  if (!app || !connection) return { outcome: "skipped: not connected" };
  const lease = await takeLease(db, connection, ctx.job.id, LEASE_SECONDS);
  if (!lease) {
    if (p.mode !== "backfill") return { outcome: "skipped: another sync of this connection is running" };
    throw new TrackerUnavailable("another sync of this connection is running; the backfill waits for it");
  }
  const vendor = VENDORS[p.kind];
  const subject = { type: "backfill", id: connection.id };
  const resumed = lease.cursorJobId === ctx.job.id && lease.cursor !== null;
  const saved = resumed ? lease.cursor : {};
  const startedAt = saved.startedAt ?? (/* @__PURE__ */ new Date()).toISOString();
  const months = settingsOf(connection.settings).backfillMonths;
  const since = saved.since ?? (p.mode !== "backfill" && lease.updatedSince ? new Date(lease.updatedSince.getTime() - OVERLAP_MS).toISOString() : new Date(Date.parse(startedAt) - months * 30.44 * 24 * 36e5).toISOString());
  let page = saved.page ?? null;
  let done = resumed ? lease.done : 0;
  const siteUrl = settingsOf(connection.settings).siteUrl;
  try {
    do {
      ctx.signal.throwIfAborted();
      const current = connection;
      const result = await patiently(ctx, () => withAccess(db, master, vendor, app, current, (token) => vendor.page(app, { externalId: current.externalId, url: siteUrl }, token, new Date(since), page)));
      done += await applyPage(ctx.app.database, connection, result.issues, result.deleted);
      page = result.next;
      await saveCursor(db, connection.id, ctx.job.id, { startedAt, since, page }, done, LEASE_SECONDS);
      await ctx.progress({ subject, done, message: `${done} issues synced from ${TRACKER_NAMES[p.kind]}` });
      connection = await loadConnection(ctx, p) ?? connection;
    } while (page !== null);
    await finishSync(db, connection.id, ctx.job.id, new Date(startedAt));
    await recordSync(db, connection.id, null);
    return { outcome: "synced", written: done };
  } catch (error) {
    const known = error instanceof TrackerGrantRefused || error instanceof TrackerUnavailable || error instanceof TrackerRateLimited;
    await recordSync(db, connection.id, known ? error.message : "The sync failed unexpectedly; it is retried.");
    if (error instanceof TrackerGrantRefused) {
      await releaseLease(db, connection.id, ctx.job.id);
      return { outcome: "needs reconnect", written: done };
    }
    throw error;
  }
}
const SWEEP_CONFIRM_LIMIT = 200;
const DAY_MS = 24 * 36e5;
async function sweepDeleted(ctx, p, state) {
  const vendor = VENDORS[p.kind];
  const app = trackerAppOf(ctx.app.config, p.kind);
  const connection = await loadConnection(ctx, p);
  if (!vendor.listIds || !vendor.issueExists || !app || !connection) return state;
  const { db } = ctx.app.database;
  const master = ctx.app.config.oauthEncryptionKey;
  const site = connection.externalId;
  try {
    const ours = await sweepableIssues(db, connection, /* @__PURE__ */ new Date());
    if (ours.oldest === null) return { ...state, swept: { listed: 0, missing: 0, deleted: 0 } };
    const since = new Date(ours.oldest.getTime() - DAY_MS);
    const listed = /* @__PURE__ */ new Set();
    let cursor = null;
    do {
      ctx.signal.throwIfAborted();
      const from = cursor;
      const page = await patiently(ctx, () => withAccess(db, master, vendor, app, connection, (token) => vendor.listIds(app, site, token, since, from)));
      for (const id of page.ids) listed.add(id);
      cursor = page.next;
    } while (cursor !== null);
    const missing = ours.trackerIds.filter((id) => !listed.has(id));
    const gone = [];
    for (const id of missing.slice(0, SWEEP_CONFIRM_LIMIT)) {
      ctx.signal.throwIfAborted();
      if (!await patiently(ctx, () => withAccess(db, master, vendor, app, connection, (token) => vendor.issueExists(app, site, token, id)))) gone.push(id);
    }
    await markDeleted(db, connection, gone);
    return { ...state, swept: { listed: listed.size, missing: missing.length, deleted: gone.length } };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const known = error instanceof TrackerGrantRefused || error instanceof TrackerUnavailable || error instanceof TrackerRateLimited;
    await recordSync(db, connection.id, `Deleted issues could not be reconciled (${known ? error.message : "unexpected error"}); the next sweep tries again.`);
    return state;
  }
}
async function ensureWebhook(ctx, p, state) {
  const { db } = ctx.app.database;
  const app = trackerAppOf(ctx.app.config, p.kind);
  const connection = await loadConnection(ctx, p);
  if (!app || !connection) return state;
  const vendor = VENDORS[p.kind];
  const row = await syncRowOf(db, connection.id);
  try {
    const webhook = await withAccess(
      db,
      ctx.app.config.oauthEncryptionKey,
      vendor,
      app,
      connection,
      (accessToken) => vendor.ensureWebhook({ app, url: webhookUrlOf(ctx.app.config, p.kind, connection.externalId), site: connection.externalId, accessToken, current: row?.webhook ?? null, secret: webhookSecretOf(ctx.app.config.oauthEncryptionKey, connection.id) })
    );
    await setWebhook(db, connection, webhook);
  } catch (error) {
    await recordSync(db, connection.id, `Webhooks could not be registered (${error instanceof Error ? error.message : "unknown error"}); the scheduled sync keeps issues current.`);
  }
  return state;
}
const trackerSyncWorkflow = defineWorkflow({
  name: "trackers.sync",
  summary: "Syncs one issue-tracker connection (Jira, Linear): issues updated since the last run, or the last N months for a backfill, page by page; in mode sweep then reconciles deletes whose webhook was lost (Jira); then registers or renews its webhooks.",
  idempotency: "Issues are upserted by (tenant, provider, externalId); the cursor after each page lets a retry resume at the next page, and a page applied twice writes the same rows.",
  payload: SyncPayload,
  tenantOf: (p) => p.tenantId,
  subjectOf: (p) => ({ type: "backfill", id: p.connectionId }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  expireInSeconds: LEASE_SECONDS,
  initialState: {},
  steps: [
    { name: "pages", run: (ctx, p) => runPages(ctx, p) },
    { name: "sweep", run: (ctx, p, state) => state.outcome === "synced" && p.mode === "sweep" ? sweepDeleted(ctx, p, state) : Promise.resolve(state) },
    { name: "webhooks", run: (ctx, p, state) => state.outcome === "synced" ? ensureWebhook(ctx, p, state) : Promise.resolve(state) }
  ]
});
const syncKinds = (config) => TRACKER_KINDS.filter((k) => config.trackers[k] !== null);
export {
  SyncPayload,
  syncKinds,
  trackerSyncWorkflow
};
