/** Owners' BI credentials (`/api/bi/credentials`, Settings › BI access; docs/bi.md). */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { biCredentialsFor } from './credentials.js';
import { biEndpoint, presentBiConnection, presentBiCredential } from './presenters.js';
import { CreateBiCredentialBody, IdParams } from './schemas.js';

export function biRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { pool } = app.database;
  const endpoint = biEndpoint(app.config.database.url, app.config.bi);
  const options = { replicaUrl: app.config.bi.databaseUrl, database: app.config.bi.database };

  router.get('/api/bi/credentials', route(app, { auth: 'required' }, async ({ principal }) => {
    const rows = await biCredentialsFor(pool, principal).list();
    return { body: { data: rows.map(presentBiCredential), meta: {} } };
  }));

  router.post('/api/bi/credentials', route(app, { auth: 'required', body: CreateBiCredentialBody }, async ({ principal, body }) => {
    const { credential, password } = await biCredentialsFor(pool, principal, options).grant(body.name);
    const { id: _id, ...connection } = presentBiConnection(endpoint, credential, password);
    return { status: 201, body: { data: { ...presentBiCredential(credential), ...connection }, meta: {} } };
  }));

  // A new password, shown once (the old one, or one the role set itself, stops working; its sessions end).
  router.post('/api/bi/credentials/:id/rotate', route(app, { auth: 'required', params: IdParams }, async ({ principal, params }) => {
    const { credential, password } = await biCredentialsFor(pool, principal, options).rotate(params.id);
    const { id: _id, ...connection } = presentBiConnection(endpoint, credential, password);
    return { body: { data: { ...presentBiCredential(credential), ...connection }, meta: {} } };
  }));

  router.delete('/api/bi/credentials/:id', route(app, { auth: 'required', params: IdParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    const credential = await biCredentialsFor(pool, principal, options).revoke(params.id);
    return { body: { data: presentBiCredential(credential), meta: {} } };
  }));

  return router;
}
