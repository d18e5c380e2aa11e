/**
 * Connecting a Notion workspace (public integration, OAuth authorization code). The owner then
 * chooses, among the pages they shared with the integration, the parent under which the monthly
 * team pages are written.
 */
import type { TenantPrincipal } from '../../auth/principal.js';
import { authorize } from '../../auth/policies.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { connectionById, saveConnection, type Connection } from '../shared/connections.js';
import { createState, stateValid } from '../shared/oauthState.js';
import { notionClient, notionErrorCode } from './client.js';

export const notionCallbackUrl = (app: AppContext) => `${app.config.appUrl}/api/integrations/notion/callback`;
export const notionSettingsUrl = (app: AppContext, outcome: string) => `${app.config.appUrl}/app/settings/integrations?notion=${encodeURIComponent(outcome)}`;

export function requireNotion(app: AppContext): { clientId: string; clientSecret: string } {
  const group = app.config.integrations.docs;
  if (!group) throw new AppError('not_found', 'Not found');
  return { clientId: group.DOCS_CLIENT_ID as string, clientSecret: group.DOCS_CLIENT_SECRET as string };
}

export function notionAuthorizeUrl(app: AppContext, owner: TenantPrincipal): string {
  authorize(owner, 'integration.manage');
  const { clientId } = requireNotion(app);
  const url = new URL(`${app.config.vendorUrls.notionApi}/v1/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    owner: 'user',
    redirect_uri: notionCallbackUrl(app),
    state: createState(app.config.oauthEncryptionKey, { tenantId: owner.tenantId, userId: owner.userId, kind: 'notion' }),
  }).toString();
  return url.toString();
}

export async function completeNotionConnect(app: AppContext, owner: TenantPrincipal, code: string, state: string): Promise<Connection> {
  authorize(owner, 'integration.manage');
  const { clientId, clientSecret } = requireNotion(app);
  if (!stateValid(app.config.oauthEncryptionKey, state, { tenantId: owner.tenantId, userId: owner.userId, kind: 'notion' })) {
    throw new AppError('forbidden', 'The Notion authorization was not started by you in this organisation, or it expired; start again from Settings › Integrations');
  }
  let granted;
  try {
    granted = await notionClient(app.config).oauth.token({ client_id: clientId, client_secret: clientSecret, grant_type: 'authorization_code', code, redirect_uri: notionCallbackUrl(app) });
  } catch (error) {
    app.log.warn({ vendor: 'notion', error: notionErrorCode(error) }, 'notion connect refused');
    throw new AppError('validation_failed', 'Notion refused the authorization code', [{ path: 'code', message: notionErrorCode(error) }]);
  }
  return saveConnection(app.database.db, app.config.oauthEncryptionKey, {
    tenantId: owner.tenantId,
    kind: 'notion',
    externalId: granted.workspace_id,
    displayName: granted.workspace_name ?? null,
    scopes: null,
    connectedBy: owner.userId,
    accessToken: granted.access_token,
    refreshToken: (granted as { refresh_token?: string | null }).refresh_token ?? null,
    expiresAt: null,
    settings: { botId: granted.bot_id, parentPageId: null, publishedMonth: null },
  });
}

/**
 * A Notion connection of the owner's tenant, to list its pages, choose the parent, publish or
 * remove it (`integration.manage`); another tenant's is "not found".
 */
export async function ownedNotionConnection(app: AppContext, owner: TenantPrincipal, id: string): Promise<Connection> {
  authorize(owner, 'integration.manage');
  requireNotion(app);
  const connection = await connectionById(app.database.db, owner.tenantId, id);
  if (!connection || connection.kind !== 'notion') throw new AppError('not_found', 'Notion connection not found');
  return connection;
}
