import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { download, route, type ApiRouter } from '../http/route.js';
import { factsCsv, listFacts } from './service.js';
import { FactsQuery } from './schemas.js';

/**
 * `GET /api/facts`: the facts behind a measure (docs/drill-through.md). JSON pages of 50 in the
 * general envelope; `format=csv` or `Accept: text/csv` the whole list as CSV with the same columns.
 */
export function factRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/facts', route(app, { auth: 'required', query: FactsQuery }, async ({ ctx, principal, query }) => {
    const csv = query.format === 'csv' || (query.format === undefined && ctx.accepts('application/json', 'text/csv') === 'text/csv');
    if (csv) {
      const { filename, body } = await factsCsv(app.database.pool, principal.tenantId, query);
      return download({ contentType: 'text/csv; charset=utf-8', filename, body });
    }
    return { body: await listFacts(app.database.pool, principal.tenantId, query) };
  }));
  return router;
}
