import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentOpenWork } from './presenters.js';
import { openWork, SECTION_LIMIT } from './service.js';
import { OpenWorkQuery } from './schemas.js';

export function openWorkRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/open-work', route(app, { auth: 'required', query: OpenWorkQuery }, async ({ principal, query }) => {
    const result = await openWork(app.database.pool, app.database.db, principal.tenantId, query.team);
    return { body: presentOpenWork(result, SECTION_LIMIT) };
  }));
  return router;
}
