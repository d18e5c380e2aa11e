import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { presentFeatures, presentMe } from './presenters.js';
import { getMe, updateMe } from './service.js';
import { route, type ApiRouter } from '../http/route.js';
import { Uuid } from '../shared/schemas.js';

/** Only these fields; anything else is a 400. `displayName: null` or "" clears the name. */
export const UpdateMeBody = z
  .strictObject({
    displayName: z.string().trim().max(100).transform((v) => (v === '' ? null : v)).nullable().optional(),
    activeTenantId: Uuid.optional(),
  })
  .refine((b) => b.displayName !== undefined || b.activeTenantId !== undefined, { message: 'Nothing to update: send displayName or activeTenantId' });

export function userRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/users/me', route(app, { auth: 'required' }, async ({ principal }) => {
    // The server's optional features, so that the web app neither shows nor asks for what is off.
    return { body: { data: presentMe(await getMe(db, principal)), meta: { features: presentFeatures(app.config) } } };
  }));

  router.patch('/api/users/me', route(app, { auth: 'required', body: UpdateMeBody, whenReadOnly: 'allowed' }, async ({ principal, body }) => {
    return { body: { data: presentMe(await updateMe(db, principal, body)), meta: {} } };
  }));

  return router;
}
