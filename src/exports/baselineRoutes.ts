import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { exportTeamBaseline } from './baseline.js';
import { BaselineQuery } from './schemas.js';
import { download, route, type ApiRouter } from '../http/route.js';

/** Any authenticated principal of the tenant (API key or session), per the spec's export rule. */
export function baselineRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/exports/team-baseline', route(app, { auth: 'required', query: BaselineQuery }, async ({ principal, query }) => {
    return download(await exportTeamBaseline(app.database.pool, principal.tenantId, query));
  }));
  return router;
}
