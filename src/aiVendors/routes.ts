/** Settings › AI tools: the vendor report sources (docs/ai-vendor-reports.md). Owners change them; any member reads their state. */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { route, type ApiRouter } from '../http/route.js';
import { realSleep } from './http.js';
import { aiVendorPull } from './jobs.js';
import { presentSource, presentSources } from './presenters.js';
import { removeSource, saveSource } from './service.js';
import { sourceOf, sourcesOf } from './store.js';
import { Params, SaveSourceBody } from './schemas.js';

export function aiVendorRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  // The key's test call on save waits out a short Retry-After, never long: the owner is waiting.
  const pace = { sleep: realSleep, maxWaitSeconds: 5 };

  router.get('/api/ai/vendors', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentSources(await sourcesOf(db, principal.tenantId)), meta: {} } };
  }));

  router.put('/api/ai/vendors/:source', route(app, { auth: { policy: 'ai.manage' }, params: Params, body: SaveSourceBody }, async ({ principal, params, body }) => {
    const signal = AbortSignal.timeout(60_000);
    const row = await saveSource(app, principal, params.source, body, { pace, signal });
    await app.jobs.send(aiVendorPull, { tenantId: principal.tenantId, source: params.source });
    return { body: { data: presentSource(params.source, row), meta: {} } };
  }));

  router.delete('/api/ai/vendors/:source', route(app, { auth: { policy: 'ai.manage' }, params: Params }, async ({ principal, params }) => {
    await removeSource(db, principal, params.source);
    return { status: 204 };
  }));

  router.post('/api/ai/vendors/:source/pull', route(app, { auth: { policy: 'ai.manage' }, params: Params }, async ({ principal, params }) => {
    const row = await sourceOf(db, principal.tenantId, params.source);
    if (!row) throw notFound('AI tool source');
    await app.jobs.send(aiVendorPull, { tenantId: principal.tenantId, source: params.source });
    return { status: 202, body: { data: presentSource(params.source, row), meta: {} } };
  }));

  return router;
}
