import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { createTenantForUser, renameTenant } from './service.js';
import { route, type ApiRouter } from '../http/route.js';
import { Uuid } from '../shared/schemas.js';

export const TenantBody = z.strictObject({ name: z.string().trim().min(1, 'A name is required').max(200) });
// A malformed id is "not found", like another tenant's.
const TenantParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });

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
