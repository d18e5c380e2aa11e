import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { schemaStatus } from '../../db/migrations.js';
import { versionDocument } from '../../version.js';

export function healthRoutes(app: AppContext): Router {
  const router = new Router();

  // Liveness: no database round trip, so a slow database never gets healthy instances killed.
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/health/ready', async (ctx) => {
    let status;
    try {
      status = await schemaStatus(app.database.pool);
    } catch (error) {
      app.log.warn({ err: error }, 'readiness: database unreachable');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: 'database unreachable' };
      return;
    }
    if (status.missing.length > 0) {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', reason: `database schema is behind: missing migration ${status.missing[0]}` };
      return;
    }
    ctx.body = {
      status: 'ready',
      schema: { applied: status.applied, bundled: status.bundled, ahead: status.ahead },
      jobs: { workerEnabled: app.config.jobs.workerEnabled },
    };
  });

  router.get('/api/version', (ctx) => {
    ctx.body = versionDocument(app.config);
  });

  return router;
}
