/**
 * Installing the Slack app into a workspace (OAuth v2) and removing it. One workspace belongs to
 * one tenant: the slash command and the events name only the workspace, so a second tenant's
 * install of the same workspace is refused rather than silently answering for either.
 */
import type { TenantPrincipal } from '../../auth/principal.js';
import { authorize } from '../../auth/policies.js';
import type { AppContext } from '../../context.js';
import { asSystem, withTenant } from '../../db/tenancy.js';
import { AppError } from '../../errors.js';
import { connectionByExternalId, connectionById, deleteConnection, saveConnection, type Connection } from '../shared/connections.js';
import { createState, stateValid } from '../shared/oauthState.js';
import { slackClient, slackErrorCode } from './client.js';

/** The bot scopes the app asks for, and why each (docs/integrations-chat-docs.md). */
export const BOT_SCOPES = ['commands', 'chat:write', 'chat:write.public', 'users:read', 'users:read.email', 'channels:read'] as const;

export const callbackUrl = (app: AppContext) => `${app.config.appUrl}/api/integrations/slack/callback`;
export const settingsUrl = (app: AppContext, outcome: string) => `${app.config.appUrl}/app/settings/integrations?slack=${encodeURIComponent(outcome)}`;

export function requireSlack(app: AppContext): { clientId: string; clientSecret: string } {
  const group = app.config.integrations.chat;
  if (!group) throw new AppError('not_found', 'Not found');
  return { clientId: group.CHAT_CLIENT_ID as string, clientSecret: group.CHAT_CLIENT_SECRET as string };
}

/** Where "Add to Slack" sends the owner: Slack's consent page with a state bound to them. */
export function slackAuthorizeUrl(app: AppContext, owner: TenantPrincipal): string {
  authorize(owner, 'integration.manage');
  const { clientId } = requireSlack(app);
  const url = new URL(app.config.vendorUrls.slackAuthorize);
  url.search = new URLSearchParams({
    client_id: clientId,
    scope: BOT_SCOPES.join(','),
    redirect_uri: callbackUrl(app),
    state: createState(app.config.oauthEncryptionKey, { tenantId: owner.tenantId, userId: owner.userId, kind: 'slack' }),
  }).toString();
  return url.toString();
}

/** Exchanges the callback's code for the bot token and stores it sealed. */
export async function completeSlackInstall(app: AppContext, owner: TenantPrincipal, code: string, state: string): Promise<Connection> {
  authorize(owner, 'integration.manage');
  const { clientId, clientSecret } = requireSlack(app);
  if (!stateValid(app.config.oauthEncryptionKey, state, { tenantId: owner.tenantId, userId: owner.userId, kind: 'slack' })) {
    throw new AppError('forbidden', 'The Slack authorization was not started by you in this organisation, or it expired; start again from Settings › Integrations');
  }
  let granted;
  try {
    granted = await slackClient(app.config).oauth.v2.access({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: callbackUrl(app) });
  } catch (error) {
    app.log.warn({ vendor: 'slack', error: slackErrorCode(error) }, 'slack install refused');
    throw new AppError('validation_failed', 'Slack refused the authorization code', [{ path: 'code', message: slackErrorCode(error) }]);
  }
  const team = granted.team;
  if (!granted.access_token || !team?.id) throw new AppError('validation_failed', 'Slack answered without a bot token', [{ path: 'code', message: 'no bot token' }]);
  const holder = await asSystem('inbound-routing', () => connectionByExternalId(app.database.db, 'slack', team.id as string));
  if (holder && holder.tenantId !== owner.tenantId) {
    throw new AppError('conflict', 'This Slack workspace is already connected to another organisation; it must be removed there first');
  }
  return saveConnection(app.database.db, app.config.oauthEncryptionKey, {
    tenantId: owner.tenantId,
    kind: 'slack',
    externalId: team.id,
    displayName: team.name ?? null,
    scopes: granted.scope ?? null,
    connectedBy: owner.userId,
    accessToken: granted.access_token,
    refreshToken: granted.refresh_token ?? null,
    expiresAt: granted.expires_in ? new Date(Date.now() + granted.expires_in * 1000) : null,
    settings: { botUserId: granted.bot_user_id ?? null, appId: granted.app_id ?? null, digestChannels: {} },
  });
}

/**
 * A Slack connection of the owner's tenant, to list its channels, set its digests or remove it
 * (`integration.manage`); another tenant's is "not found".
 */
export async function ownedSlackConnection(app: AppContext, owner: TenantPrincipal, id: string): Promise<Connection> {
  authorize(owner, 'integration.manage');
  const connection = await connectionById(app.database.db, owner.tenantId, id);
  if (!connection || connection.kind !== 'slack') throw new AppError('not_found', 'Slack connection not found');
  return connection;
}

/**
 * `app_uninstalled`, or `tokens_revoked` naming our bot: the workspace took its grant back, so the
 * connection (and with it the sealed token) is removed. Returns whether there was one.
 */
export async function removeSlackInstall(app: AppContext, workspaceId: string): Promise<boolean> {
  const connection = await asSystem('inbound-routing', () => connectionByExternalId(app.database.db, 'slack', workspaceId));
  if (!connection) return false;
  await withTenant(connection.tenantId, () => deleteConnection(app.database.db, connection.tenantId, connection.id));
  app.log.info({ vendor: 'slack', tenantId: connection.tenantId, connectionId: connection.id }, 'slack app removed by the workspace');
  return true;
}
