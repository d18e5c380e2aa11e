import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { exportTeamRoster } from './teamRoster.js';
import { RosterQuery } from './schemas.js';
import { download, route, type ApiRouter } from '../http/route.js';

/** Any authenticated principal of the tenant (API key or session), per the spec's export rule. */
export function teamRosterRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/exports/team-roster', route(app, { auth: 'required', query: RosterQuery }, async ({ principal, query }) => {
    return download(await exportTeamRoster(app.database.db, principal.tenantId, query));
  }));
  return router;
}
