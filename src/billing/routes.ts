/**
 * Billing's paths, which exist only while BILLING_ENABLED is on: off, this router is empty and
 * every billing path is the ordinary 404 of an unknown route (docs/billing.md).
 */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, withoutRoutes, type ApiRouter } from '../http/route.js';
import { billingNotice, billingOverview } from './service.js';
import { receivePaddleNotification } from './webhook.js';

/** Paddle's notifications are small; this leaves room for a subscription with many items. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

export function billingRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  if (!app.config.billing) return withoutRoutes(router);

  router.get('/api/billing', route(app, { auth: { policy: 'billing.manage' } }, async ({ principal }) => ({ body: { data: await billingOverview(app, principal), meta: {} } })));

  router.get('/api/billing/notice', route(app, { auth: 'required' }, async ({ principal }) => ({ body: { data: await billingNotice(app, principal.tenantId), meta: {} } })));

  // Authenticated by Paddle's signature, not a principal: the tenant is found from the custom data.
  router.post('/api/billing/webhook', route(app, { auth: 'none', system: 'inbound-routing', limit: 'none', bodyKind: 'raw', bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => {
    const { status, body: answer } = await receivePaddleNotification(app, ctx.get('paddle-signature'), body);
    return { status, body: answer };
  }));

  return router;
}
