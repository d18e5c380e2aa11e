import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { BaselineQuery, exportTeamBaseline } from '../../services/baseline.js';
import { route } from '../route.js';

/** Any authenticated principal of the tenant (API key or session), per the spec's export rule. */
export function baselineRoutes(app: AppContext): Router {
  const router = new Router();
  router.get('/api/exports/team-baseline', route(app, { auth: 'required', query: BaselineQuery }, async ({ principal, query }) => {
    const out = await exportTeamBaseline(app.database.pool, principal.tenantId, query);
    return {
      type: out.contentType,
      headers: { 'Content-Disposition': `attachment; filename="${out.filename}"`, 'Cache-Control': 'no-store' },
      body: out.body,
    };
  }));
  return router;
}
