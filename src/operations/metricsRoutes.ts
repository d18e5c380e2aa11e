import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { listMetrics } from './metrics.js';
import { MetricsQuery } from './schemas.js';
import { route, type ApiRouter } from '../http/route.js';

export function metricsRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/metrics', route(app, { auth: 'required', query: MetricsQuery }, async ({ principal, query }) => {
    const { rows, total, from, to } = await listMetrics(app.database.pool, principal.tenantId, query);
    return { body: { data: rows, meta: { page: query.page, perPage: query.perPage, total, from, to } } };
  }));
  return router;
}
