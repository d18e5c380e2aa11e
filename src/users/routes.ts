import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { presentFeatures, presentMe } from './presenters.js';
import { getMe, updateMe } from './service.js';
import { route, type ApiRouter } from '../http/route.js';
import { UpdateMeBody } from './schemas.js';

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
