import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentAiImpact, presentAiImpactLevels } from './presenters.js';
import { AiImpactLevelsQuery, AiImpactQuery } from './schemas.js';
import { aiImpact, aiImpactLevels } from './service.js';

/** `GET /api/ai-impact`: every flow and quality measure, AI-assisted against not, and before/after adoption (docs/ai-impact.md). */
export function aiImpactRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/ai-impact', route(app, { auth: 'required', query: AiImpactQuery }, async ({ principal, query }) => {
    return { body: presentAiImpact(await aiImpact(app.database.pool, principal.tenantId, query, { levels: query.levels !== 'omit' })) };
  }));
  /** Each measure's value and n per AI attribution level alone (what `levels=omit` leaves out). */
  router.get('/api/ai-impact/levels', route(app, { auth: 'required', query: AiImpactLevelsQuery }, async ({ principal, query }) => {
    return { body: presentAiImpactLevels(await aiImpactLevels(app.database.pool, principal.tenantId, query)) };
  }));
  return router;
}
