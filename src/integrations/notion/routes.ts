/**
 * Notion's paths. Without DOCS_CLIENT_ID and DOCS_CLIENT_SECRET every path but the status is a
 * 404; the webhook additionally needs DOCS_WEBHOOK_SECRET (503 without it), except the
 * subscription's handshake, which brings the token to set it to.
 */
import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { readRawBody } from '../../http/body.js';
import { route, type ApiRouter } from '../../http/route.js';
import { connectionById, connectionsOf, deleteConnection, presentConnection, setConnectionState, tokensOf, updateSettings, type Connection } from '../shared/connections.js';
import { notionClient, notionErrorCode } from './client.js';
import { completeNotionConnect, notionAuthorizeUrl, notionSettingsUrl, ownedNotionConnection, requireNotion } from './install.js';
import { notionPublish } from './jobs.js';
import { closedMonth } from '../../shared/monthWindow.js';
import { receiveNotionWebhook } from './webhook.js';
import { CallbackQuery, ConnectionParams, ParentBody, PublishBody } from './schemas.js';

const titleOf = (page: { properties?: Record<string, unknown> }): string => {
  for (const p of Object.values(page.properties ?? {}) as { type?: string; title?: { plain_text?: string }[] }[]) {
    if (p.type === 'title') return (p.title ?? []).map((t) => t.plain_text ?? '').join('') || 'Untitled';
  }
  return 'Untitled';
};

/** GET /api/integrations/notion: whether Notion is configured, the webhook URL, and the tenant's workspaces. */
export function presentNotionStatus(app: AppContext, enabled: boolean, connections: Connection[]) {
  const { appUrl, docsWebhookSecret } = app.config;
  return { enabled, webhooksAccepted: enabled && docsWebhookSecret !== null, webhookUrl: `${appUrl}/api/integrations/notion/webhook`, connections: connections.map(presentConnection) };
}

/** A page shared with the integration: a candidate parent page. */
export const presentPage = (p: { id: string }) => ({ id: p.id, title: titleOf(p as { properties?: Record<string, unknown> }) });

export function notionRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/integrations/notion', route(app, { auth: 'required' }, async ({ principal }) => {
    const enabled = app.config.integrations.docs !== null;
    const connections = enabled ? await connectionsOf(db, principal.tenantId, 'notion') : [];
    return { body: { data: presentNotionStatus(app, enabled, connections), meta: {} } };
  }));

  router.get('/api/integrations/notion/connect', route(app, { auth: { policy: 'integration.manage' } }, async ({ principal }) => ({ status: 302, headers: { location: notionAuthorizeUrl(app, principal) } })));

  router.get('/api/integrations/notion/callback', route(app, { auth: { policy: 'integration.manage' }, query: CallbackQuery }, async ({ principal, query }) => {
    requireNotion(app);
    if (query.error || !query.code || !query.state) return { status: 302, headers: { location: notionSettingsUrl(app, query.error === 'access_denied' ? 'denied' : 'failed') } };
    await completeNotionConnect(app, principal, query.code, query.state);
    return { status: 302, headers: { location: notionSettingsUrl(app, 'connected') } };
  }));

  router.post('/api/integrations/notion/webhook', route(app, { auth: 'none', limit: 'none' }, async ({ ctx }) => {
    requireNotion(app);
    // Read even without DOCS_WEBHOOK_SECRET: the subscription's handshake brings the token it needs.
    const body = await readRawBody(ctx, 256 * 1024);
    return { body: await receiveNotionWebhook(app, body, ctx.get('x-notion-signature'), ctx.ip) };
  }));

  // The pages shared with the integration: the candidates for the parent page.
  router.get('/api/integrations/notion/connections/:id/pages', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams }, async ({ principal, params }) => {
    const connection = await ownedNotionConnection(app, principal, params.id);
    try {
      const found = await notionClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken).search({ filter: { property: 'object', value: 'page' }, page_size: 100 });
      const pages = found.results.map(presentPage);
      return { body: { data: pages, meta: { page: 1, perPage: pages.length, total: pages.length } } };
    } catch (error) {
      throw new AppError('unavailable', `Notion did not list the pages (${notionErrorCode(error)})`);
    }
  }));

  router.put('/api/integrations/notion/connections/:id/parent', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, body: ParentBody }, async ({ principal, params, body }) => {
    const connection = await ownedNotionConnection(app, principal, params.id);
    try {
      await notionClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken).pages.retrieve({ page_id: body.pageId });
    } catch (error) {
      throw new AppError('validation_failed', 'Validation failed', [{ path: 'pageId', message: `Notion cannot open this page for the integration (${notionErrorCode(error)}); share it with the integration first` }]);
    }
    const settings = { ...connection.settings, parentPageId: body.pageId };
    await updateSettings(db, connection.id, settings);
    // Choosing a parent again is how an owner clears "needs attention".
    if (connection.state === 'needs_attention') await setConnectionState(db, connection.id, 'active', null);
    const fresh = await connectionById(db, principal.tenantId, connection.id);
    return { body: { data: presentConnection(fresh!), meta: {} } };
  }));

  router.post('/api/integrations/notion/connections/:id/publish', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, body: PublishBody }, async ({ principal, params, body }) => {
    const connection = await ownedNotionConnection(app, principal, params.id);
    if (!connection.settings.parentPageId) throw new AppError('conflict', 'Choose a parent page first');
    if (connection.state !== 'active') throw new AppError('conflict', `The connection ${connection.state === 'needs_reconnect' ? 'needs to be connected again' : 'needs attention'}: ${connection.stateDetail ?? ''}`.trim());
    const month = body.month ?? closedMonth();
    const jobId = await app.jobs.send(notionPublish, { tenantId: principal.tenantId, connectionId: connection.id, month });
    return { status: 202, body: { data: { jobId, month }, meta: {} } };
  }));

  router.delete('/api/integrations/notion/connections/:id', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    const connection = await ownedNotionConnection(app, principal, params.id);
    await deleteConnection(db, principal.tenantId, connection.id);
    return { status: 204 };
  }));

  return router;
}
