/** AI attribution (docs/ai-attribution.md): the organisation's AI labels and the per-signal counts. */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentAttributionSettings } from './presenters.js';
import { AttributionSettingsBody, SignalsQuery } from './schemas.js';
import { findAttributionSettings, saveAttributionSettings, signalCounts } from './service.js';

export function aiAttributionRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db, pool } = app.database;

  router.get('/api/ai/attribution/settings', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentAttributionSettings(await findAttributionSettings(db, principal.tenantId)), meta: {} } };
  }));

  router.put('/api/ai/attribution/settings', route(app, { auth: { policy: 'aiAttribution.manage' }, body: AttributionSettingsBody }, async ({ principal, body }) => {
    return { body: { data: presentAttributionSettings(await saveAttributionSettings(db, principal, body)), meta: {} } };
  }));

  router.get('/api/ai/attribution/signals', route(app, { auth: { policy: 'aiAttribution.signals' }, query: SignalsQuery }, async ({ principal, query }) => {
    return { body: { data: await signalCounts(pool, principal, query), meta: {} } };
  }));
  return router;
}
