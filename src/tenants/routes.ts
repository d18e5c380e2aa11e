import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { createTenantForUser, renameTenant } from './service.js';
import { route, type ApiRouter } from '../http/route.js';
import { TenantBody, TenantParams } from './schemas.js';

/** Organisations (tenants) from the web app: create one (the creator owns it), rename the active one. */
export function tenantRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.post('/api/tenants', route(app, { auth: 'required', body: TenantBody, whenReadOnly: 'allowed' }, async ({ principal, body }) => {
    const tenant = await createTenantForUser(db, principal.userId, body.name);
    return { status: 201, body: { data: { ...tenant, role: 'owner' }, meta: {} } };
  }));

  router.patch('/api/tenants/:id', route(app, { auth: { policy: 'tenant.manage' }, params: TenantParams, body: TenantBody }, async ({ principal, params, body }) => {
    return { body: { data: await renameTenant(db, principal, params.id, body.name), meta: {} } };
  }));

  return router;
}
