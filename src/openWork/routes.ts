import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentOpenWork } from './presenters.js';
import { openWork, SECTION_LIMIT } from './service.js';

/** `team`: a team's id or slug; without it, the whole organisation. */
export const OpenWorkQuery = z.object({ team: z.string().trim().min(1).max(200).optional() });

export function openWorkRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/open-work', route(app, { auth: 'required', query: OpenWorkQuery }, async ({ principal, query }) => {
    const result = await openWork(app.database.pool, app.database.db, principal.tenantId, query.team);
    return { body: presentOpenWork(result, SECTION_LIMIT) };
  }));
  return router;
}
