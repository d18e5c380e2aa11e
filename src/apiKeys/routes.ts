import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { presentApiKey, presentNewApiKey } from './presenters.js';
import { keysChanged } from './principal.js';
import { createApiKey, currentApiKey, listApiKeys, revokeApiKey } from './service.js';
import { listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { CreateKeyBody, KeyParams } from './schemas.js';

export function apiKeyRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/keys', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listApiKeys(db, principal, query);
    return { body: listEnvelope(rows.map(presentApiKey), query, total) };
  }));

  // Before any `/api/keys/:id` route: `current` is not an id.
  router.get('/api/keys/current', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentApiKey(await currentApiKey(db, principal)), meta: {} } };
  }));

  router.post('/api/keys', route(app, { auth: 'required', body: CreateKeyBody }, async ({ principal, body }) => {
    const { key, secret } = await createApiKey(db, principal, body);
    return { status: 201, body: { data: presentNewApiKey(key, secret), meta: {} } };
  }));

  router.delete('/api/keys/:id', route(app, { auth: 'required', whenReadOnly: 'allowed', params: KeyParams.catch({ id: '00000000-0000-0000-0000-000000000000' }) }, async ({ principal, params }) => {
    const key = await revokeApiKey(db, principal, params.id);
    await keysChanged(app, principal.tenantId);
    return { body: { data: presentApiKey(key), meta: {} } };
  }));

  return router;
}
