/**
 * What an owner does with a tracker: connect (the OAuth callback stores one connection per site
 * and starts its backfill), map, sync again, disconnect. Every function takes the principal's
 * tenant; another tenant's connection is "not found". Each is `integration.manage` (policies.ts).
 */
import type { TenantPrincipal } from '../../auth/principal.js';
import { authorize } from '../../auth/policies.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { connectionById, connectionsOf, deleteConnection, presentConnection, saveConnection, tokensOf, updateSettings, type Connection } from '../shared/connections.js';
import { createState, stateValid } from '../shared/oauthState.js';
import { settingsOf } from './mapping.js';
import type { SettingsChange } from './schemas.js';
import { flagStale, syncRowOf } from './store.js';
import { trackerSyncWorkflow } from './syncJob.js';
import { TrackerGrantRefused, type TrackerKind } from './types.js';
import { jiraAdminWebhookUrlOf, requireTrackerApp, trackerAppOf, VENDORS, webhookSecretOf, webhookUrlOf } from './vendors.js';

export function connectUrl(app: AppContext, principal: TenantPrincipal, kind: TrackerKind): string {
  authorize(principal, 'integration.manage');
  const tracker = requireTrackerApp(app.config, kind);
  return VENDORS[kind].authorizeUrl(tracker, createState(app.config.oauthEncryptionKey, { tenantId: principal.tenantId, userId: principal.userId, kind }));
}

export const settingsPage = (app: AppContext, kind: TrackerKind, result: string) => `${app.config.appUrl}/app/settings/integrations?tracker=${kind}&result=${result}`;

/**
 * The vendor sent the owner back. The state must be the one this owner, in this tenant, was given
 * for this tracker; then the code is exchanged, each reachable site stored (tokens sealed) and
 * its backfill enqueued. Returns where to send the browser.
 */
export async function completeConnect(app: AppContext, principal: TenantPrincipal, kind: TrackerKind, query: { code?: string; state?: string; error?: string }): Promise<string> {
  authorize(principal, 'integration.manage');
  const tracker = requireTrackerApp(app.config, kind);
  if (!stateValid(app.config.oauthEncryptionKey, query.state, { tenantId: principal.tenantId, userId: principal.userId, kind })) {
    throw new AppError('forbidden', 'This connect request expired or was started by someone else; press Connect again');
  }
  if (query.error || !query.code) return settingsPage(app, kind, 'denied');
  const vendor = VENDORS[kind];
  try {
    const grant = await vendor.exchangeCode(tracker, query.code);
    const sites = await vendor.sites(tracker, grant.accessToken);
    if (sites.length === 0) return settingsPage(app, kind, 'no-site');
    for (const site of sites) {
      const existing = (await connectionsOf(app.database.db, principal.tenantId, kind)).find((c) => c.externalId === site.externalId);
      const settings = { ...settingsOf(existing?.settings), ...(site.url ? { siteUrl: site.url } : {}) };
      const connection = await saveConnection(app.database.db, app.config.oauthEncryptionKey, {
        tenantId: principal.tenantId, kind, externalId: site.externalId, displayName: site.displayName, scopes: grant.scopes,
        connectedBy: principal.userId, accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresAt: grant.expiresAt, settings,
      });
      await flagStale(app.database.db, connection, false);
      await enqueueSync(app, connection, 'backfill');
    }
    return settingsPage(app, kind, 'connected');
  } catch (error) {
    app.log.warn({ kind, err: error instanceof Error ? error.name : 'unknown' }, 'tracker connect failed');
    return settingsPage(app, kind, error instanceof TrackerGrantRefused ? 'refused' : 'failed');
  }
}

export function enqueueSync(app: AppContext, connection: Connection, mode: 'backfill' | 'incremental'): Promise<string> {
  return app.jobs.send(trackerSyncWorkflow, { tenantId: connection.tenantId, connectionId: connection.id, kind: connection.kind as TrackerKind, mode });
}

async function ownConnection(app: AppContext, principal: TenantPrincipal, kind: TrackerKind, id: string): Promise<Connection> {
  const connection = await connectionById(app.database.db, principal.tenantId, id);
  if (!connection || connection.kind !== kind) throw new AppError('not_found', 'Connection not found');
  return connection;
}

/**
 * Disconnects one connection (or every one of this tracker): its webhooks are deregistered and the
 * grant revoked where the vendor allows (best effort: a vendor outage does not keep tokens here),
 * then the row and its tokens are deleted. Synced issues stay, as history.
 */
export async function disconnect(app: AppContext, principal: TenantPrincipal, kind: TrackerKind, id: string | undefined): Promise<{ removed: number; revoked: number }> {
  authorize(principal, 'integration.manage');
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
      // Tokens that no longer open, a vendor that is down: the local delete still happens.
    }
    await flagStale(app.database.db, c, false);
    await deleteConnection(app.database.db, principal.tenantId, c.id);
  }
  return { removed: targets.length, revoked };
}

/** Replaces the mapping and/or backfill depth; issues already synced take the new mapping at the next backfill. */
export async function changeSettings(app: AppContext, principal: TenantPrincipal, kind: TrackerKind, id: string, change: SettingsChange): Promise<Connection> {
  authorize(principal, 'integration.manage');
  const connection = await ownConnection(app, principal, kind, id);
  const settings = { ...settingsOf(connection.settings), ...change };
  await updateSettings(app.database.db, connection.id, settings);
  return { ...connection, settings };
}

/**
 * What a Jira administrator enters to register an admin webhook for this connection's site (Jira
 * settings › System › WebHooks): the URL, and the connection's own secret that signs its deliveries
 * (`X-Hub-Signature`). Derived, never stored; the owner sees it, as the tracker's admin must.
 */
export async function jiraAdminWebhook(app: AppContext, principal: TenantPrincipal, id: string): Promise<{ url: string; secret: string }> {
  authorize(principal, 'integration.manage');
  const connection = await ownConnection(app, principal, 'jira', id);
  return { url: jiraAdminWebhookUrlOf(app.config, connection.externalId), secret: webhookSecretOf(app.config.oauthEncryptionKey, connection.id) };
}

export async function startBackfill(app: AppContext, principal: TenantPrincipal, kind: TrackerKind, id: string): Promise<string> {
  authorize(principal, 'integration.manage');
  requireTrackerApp(app.config, kind);
  const connection = await ownConnection(app, principal, kind, id);
  if (connection.state === 'needs_reconnect') throw new AppError('conflict', 'The connection needs a reconnect before it can sync');
  return enqueueSync(app, connection, 'backfill');
}

/** The settings page's view: per tracker, whether it is configured, its URLs, and the tenant's connections with their sync state. */
export async function trackerOverview(app: AppContext, principal: TenantPrincipal) {
  const trackerView = async (kind: TrackerKind) => {
    const tracker = trackerAppOf(app.config, kind);
    const connections = tracker ? await connectionsOf(app.database.db, principal.tenantId, kind) : [];
    return {
      configured: tracker !== null,
      callbackUrl: tracker?.redirectUri ?? null,
      connections: await Promise.all(connections.map(async (c) => presentTrackerConnection(c, await syncRowOf(app.database.db, c.id)))),
    };
  };
  return { jira: await trackerView('jira'), linear: await trackerView('linear') };
}

export function presentTrackerConnection(c: Connection, sync: Awaited<ReturnType<typeof syncRowOf>>) {
  const { settings: _raw, ...rest } = presentConnection(c);
  return {
    ...rest,
    settings: settingsOf(c.settings),
    sync: {
      running: sync?.leaseJobId != null && sync.leaseUntil !== null && sync.leaseUntil.getTime() > Date.now(),
      done: sync?.cursorJobId ? sync.done : null,
      updatedSince: sync?.updatedSince?.toISOString() ?? null,
      webhook: sync?.webhook ? true : false,
    },
  };
}
