import { hostname } from 'node:os';
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { schemaStatus } from '../db/migrations.js';
import { versionDocument } from '../version.js';

/**
 * Names this instance on /health so an operator (or a test) can see which replica behind the load
 * balancer answered. Traefik cannot name the backend it picked in a response header, so the
 * instance says it itself: the host name tells containers apart (each has its own), the process
 * id tells apart several processes on one machine.
 */
export const INSTANCE_HEADER = 'X-Served-By';
export const instanceName = `${hostname()}/${process.pid}`;

export function healthRoutes(app: AppContext): Router {
  const router = new Router();

  // Liveness: no database round trip, so a slow database never gets healthy instances killed.
  router.get('/health', (ctx) => {
    ctx.set(INSTANCE_HEADER, instanceName);
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
