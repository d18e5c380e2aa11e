import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { asSystem } from '../db/tenancy.js';
import { configReport, staleIntegrationCounts } from './configReport.js';
import { route, type ApiRouter } from '../http/route.js';

/** Global-administrator routes (header X-Admin-Secret; nobody is administrator without ADMIN_SECRET). */
export function adminRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  router.get('/api/config-report', route(app, { auth: 'admin' }, async () => ({
    body: { data: { ...configReport(app.config), staleIntegrations: await asSystem('operator', () => staleIntegrationCounts(app.database.db)) }, meta: {} },
  })));
  return router;
}
