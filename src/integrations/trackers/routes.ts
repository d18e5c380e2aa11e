/**
 * `/api/integrations/jira/*` and `/api/integrations/linear/*` (docs/integrations-trackers.md). The
 * paths are spelled out per tracker rather than as `/:kind`, so they never catch another
 * integration's paths; an unconfigured tracker answers 404 on all of them.
 */
import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { route, type ApiRouter } from '../../http/route.js';
import { changeSettings, completeConnect, jiraAdminWebhook, connectUrl, disconnect, presentTrackerConnection, startBackfill, trackerOverview } from './service.js';
import { syncRowOf } from './store.js';
import { TRACKER_KINDS, type TrackerKind } from './types.js';
import { requireTrackerApp } from './vendors.js';
import { receiveJiraWebhook, receiveLinearWebhook } from './webhooks.js';
import { CallbackQuery, ConnectionParams, DisconnectQuery, SettingsChange, WebhookQuery } from './schemas.js';

const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

export function trackerRoutes(app: AppContext) {
  const router: ApiRouter = new Router();

  router.get('/api/integrations/trackers', route(app, { auth: 'required' }, async ({ principal }) => ({ body: { data: await trackerOverview(app, principal), meta: {} } })));

  // A router per tracker, mounted: its routes stay in the route table's type (http/route.ts).
  for (const kind of TRACKER_KINDS) {
    const kindRouter = trackerKindRoutes(app, kind);
    router.use(kindRouter.routes(), kindRouter.allowedMethods());
  }

  // The owner hands these to a Jira administrator who registers an admin webhook (signed, X-Hub-Signature).
  const jiraConfigured = async (_ctx: unknown, next: () => Promise<unknown>) => {
    requireTrackerApp(app.config, 'jira');
    await next();
  };
  router.get('/api/integrations/jira/connections/:id/admin-webhook', jiraConfigured, route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams }, async ({ principal, params }) => ({
    body: { data: await jiraAdminWebhook(app, principal, params.id), meta: {} },
  })));

  // Authenticated by their signatures, not by a principal.
  router.post('/api/integrations/jira/webhook', route(app, { auth: 'none', limit: 'none', bodyKind: 'raw', bodyLimit: WEBHOOK_BODY_LIMIT, query: WebhookQuery }, async ({ ctx, body, query }) => ({
    body: {
      data: await receiveJiraWebhook(app, {
        authorization: ctx.get('authorization'),
        hubSignature: ctx.get('x-hub-signature'),
        identifier: ctx.get('x-atlassian-webhook-identifier'),
        site: query.site,
        key: query.key,
        body: body as unknown as Buffer,
      }),
      meta: {},
    },
  })));
  router.post('/api/integrations/linear/webhook', route(app, { auth: 'none', limit: 'none', bodyKind: 'raw', bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => ({
    body: { data: await receiveLinearWebhook(app, { signature: ctx.get('linear-signature'), body: body as unknown as Buffer }), meta: {} },
  })));

  return router;
}

/** The routes of one tracker (`/api/integrations/jira/…`, `/api/integrations/linear/…`). */
export function trackerKindRoutes<K extends TrackerKind>(app: AppContext, kind: K) {
  const router: ApiRouter = new Router();
  const base = `/api/integrations/${kind}` as const;
  // Checked before authentication too, so an unconfigured tracker is 404 for everyone.
  const configured = async (_ctx: unknown, next: () => Promise<unknown>) => {
    requireTrackerApp(app.config, kind);
    await next();
  };

  router.get(`${base}/connect`, configured, route(app, { auth: { policy: 'integration.manage' } }, ({ ctx, principal }) => {
    ctx.redirect(connectUrl(app, principal, kind));
  }));

  router.get(`${base}/callback`, configured, route(app, { auth: { policy: 'integration.manage' }, query: CallbackQuery }, async ({ ctx, principal, query }) => {
    ctx.redirect(await completeConnect(app, principal, kind, query));
  }));

  router.delete(base, configured, route(app, { auth: { policy: 'integration.manage' }, query: DisconnectQuery, whenReadOnly: 'allowed' }, async ({ principal, query }) => ({
    body: { data: await disconnect(app, principal, kind, query.connection), meta: {} },
  })));

  router.patch(`${base}/connections/:id`, configured, route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, body: SettingsChange }, async ({ principal, params, body }) => {
    const connection = await changeSettings(app, principal, kind, params.id, body);
    return { body: { data: presentTrackerConnection(connection, await syncRowOf(app.database.db, connection.id)), meta: {} } };
  }));

  router.post(`${base}/connections/:id/backfill`, configured, route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams }, async ({ principal, params }) => ({
    status: 202,
    body: { data: { jobId: await startBackfill(app, principal, kind, params.id) }, meta: {} },
  })));
  return router;
}
