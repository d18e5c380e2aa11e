import { authorize } from "../../auth/policies.js";
import { AppError } from "../../errors.js";
import { connectionById, connectionsOf, deleteConnection, presentConnection, saveConnection, tokensOf, updateSettings } from "../shared/connections.js";
import { createState, stateValid } from "../shared/oauthState.js";
import { settingsOf, TrackerMappingChange } from "./mapping.js";
import { flagStale, syncRowOf } from "./store.js";
import { trackerSyncWorkflow } from "./syncJob.js";
import { TrackerGrantRefused } from "./types.js";
import { jiraAdminWebhookUrlOf, requireTrackerApp, trackerAppOf, VENDORS, webhookSecretOf, webhookUrlOf } from "./vendors.js";
import { z } from "zod";
function connectUrl(app, principal, kind) {
  authorize(principal, "integration.manage");
  const tracker = requireTrackerApp(app.config, kind);
  return VENDORS[kind].authorizeUrl(tracker, createState(app.config.oauthEncryptionKey, { tenantId: principal.tenantId, userId: principal.userId, kind }));
}
const settingsPage = (app, kind, result) => `${app.config.appUrl}/app/settings/integrations?tracker=${kind}&result=${result}`;
async function completeConnect(app, principal, kind, query) {
  authorize(principal, "integration.manage");
  const tracker = requireTrackerApp(app.config, kind);
  if (!stateValid(app.config.oauthEncryptionKey, query.state, { tenantId: principal.tenantId, userId: principal.userId, kind })) {
    throw new AppError("forbidden", "This connect request expired or was started by someone else; press Connect again");
  }
  if (query.error || !query.code) return settingsPage(app, kind, "denied");
  const vendor = VENDORS[kind];
  try {
    const grant = await vendor.exchangeCode(tracker, query.code);
    const sites = await vendor.sites(tracker, grant.accessToken);
    if (sites.length === 0) return settingsPage(app, kind, "no-site");
    for (const site of sites) {
      const existing = (await connectionsOf(app.database.db, principal.tenantId, kind)).find((c) => c.externalId === site.externalId);
      const settings = { ...settingsOf(existing?.settings), ...site.url ? { siteUrl: site.url } : {} };
      const connection = await saveConnection(app.database.db, app.config.oauthEncryptionKey, {
        tenantId: principal.tenantId,
        kind,
        externalId: site.externalId,
        displayName: site.displayName,
        scopes: grant.scopes,
        connectedBy: principal.userId,
        accessToken: grant.accessToken,
        refreshToken: grant.refreshToken,
        expiresAt: grant.expiresAt,
        settings
      });
      await flagStale(app.database.db, connection, false);
      await enqueueSync(app, connection, "backfill");
    }
    return settingsPage(app, kind, "connected");
  } catch (error) {
    app.log.warn({ kind, err: error instanceof Error ? error.name : "unknown" }, "tracker connect failed");
    return settingsPage(app, kind, error instanceof TrackerGrantRefused ? "refused" : "failed");
  }
}
function enqueueSync(app, connection, mode) {
  return app.jobs.send(trackerSyncWorkflow, { tenantId: connection.tenantId, connectionId: connection.id, kind: connection.kind, mode });
}
async function ownConnection(app, principal, kind, id) {
  const connection = await connectionById(app.database.db, principal.tenantId, id);
  if (!connection || connection.kind !== kind) throw new AppError("not_found", "Connection not found");
  return connection;
}
async function disconnect(app, principal, kind, id) {
  authorize(principal, "integration.manage");
  const tracker = requireTrackerApp(app.config, kind);
  const targets = id ? [await ownConnection(app, principal, kind, id)] : await connectionsOf(app.database.db, principal.tenantId, kind);
  let revoked = 0;
  for (const c of targets) {
    try {
      const tokens = tokensOf(app.config.oauthEncryptionKey, c);
      const row = await syncRowOf(app.database.db, c.id);
      await VENDORS[kind].removeWebhook({ app: tracker, url: webhookUrlOf(app.config, kind, c.externalId), site: c.externalId, accessToken: tokens.accessToken, current: row?.webhook ?? null, secret: webhookSecretOf(app.config.oauthEncryptionKey, c.id) });
      if (await VENDORS[kind].revoke(tracker, tokens)) revoked++;
    } catch {
    }
    await flagStale(app.database.db, c, false);
    await deleteConnection(app.database.db, principal.tenantId, c.id);
  }
  return { removed: targets.length, revoked };
}
const SettingsChange = z.strictObject({
  mapping: TrackerMappingChange.optional(),
  backfillMonths: z.number().int().min(1).max(36).optional()
});
async function changeSettings(app, principal, kind, id, change) {
  authorize(principal, "integration.manage");
  const connection = await ownConnection(app, principal, kind, id);
  const settings = { ...settingsOf(connection.settings), ...change };
  await updateSettings(app.database.db, connection.id, settings);
  return { ...connection, settings };
}
async function jiraAdminWebhook(app, principal, id) {
  authorize(principal, "integration.manage");
  const connection = await ownConnection(app, principal, "jira", id);
  return { url: jiraAdminWebhookUrlOf(app.config, connection.externalId), secret: webhookSecretOf(app.config.oauthEncryptionKey, connection.id) };
}
async function startBackfill(app, principal, kind, id) {
  authorize(principal, "integration.manage");
  requireTrackerApp(app.config, kind);
  const connection = await ownConnection(app, principal, kind, id);
  if (connection.state === "needs_reconnect") throw new AppError("conflict", "The connection needs a reconnect before it can sync");
  return enqueueSync(app, connection, "backfill");
}
async function trackerOverview(app, principal) {
  const trackerView = async (kind) => {
    const tracker = trackerAppOf(app.config, kind);
    const connections = tracker ? await connectionsOf(app.database.db, principal.tenantId, kind) : [];
    return {
      configured: tracker !== null,
      callbackUrl: tracker?.redirectUri ?? null,
      connections: await Promise.all(connections.map(async (c) => presentTrackerConnection(c, await syncRowOf(app.database.db, c.id))))
    };
  };
  return { jira: await trackerView("jira"), linear: await trackerView("linear") };
}
function presentTrackerConnection(c, sync) {
  const { settings: _raw, ...rest } = presentConnection(c);
  return {
    ...rest,
    settings: settingsOf(c.settings),
    sync: {
      running: sync?.leaseJobId != null && sync.leaseUntil !== null && sync.leaseUntil.getTime() > Date.now(),
      done: sync?.cursorJobId ? sync.done : null,
      updatedSince: sync?.updatedSince?.toISOString() ?? null,
      webhook: sync?.webhook ? true : false
    }
  };
}
export {
  SettingsChange,
  changeSettings,
  completeConnect,
  connectUrl,
  disconnect,
  enqueueSync,
  jiraAdminWebhook,
  presentTrackerConnection,
  settingsPage,
  startBackfill,
  trackerOverview
};
