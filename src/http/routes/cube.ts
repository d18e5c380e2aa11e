/**
 * Cube's REST protocol (`/cubejs-api/v1/*`), served by us so that `@cubejs-client/core` and other
 * Cube clients work against the service. Authenticated like the general API; the tenant is the
 * principal's. Errors use Cube's body (`{error: <message>}`, plus our code and details).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { cubeDryRun, cubeLoad, cubeMeta, cubeSql, type LoadResult } from '../../cube/service.js';
import { loadCube } from '../../cube/compiler.js';
import { route } from '../route.js';

const BASE = '/cubejs-api/v1';

// GET carries the query as JSON text in `?query=`; POST as an object (or text) in the body.
const QueryParams = z.object({ query: z.string().max(100_000).optional(), queryType: z.enum(['multi']).optional() });
export const QueryBody = z.object({ query: z.unknown(), queryType: z.enum(['multi']).optional() });

/** Cube clients send the token bare (`Authorization: gai_…`); the general API expects a Bearer. */
const bearerCompat: Koa.Middleware = async (ctx, next) => {
  const header = ctx.get('authorization');
  if (header.startsWith('gai_')) ctx.req.headers.authorization = `Bearer ${header}`;
  await next();
};

const cubeErrors: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (caught) {
    if (!(caught instanceof AppError) || caught.code === 'internal') throw caught;
    ctx.status = caught.status;
    for (const [name, value] of Object.entries(caught.headers ?? {})) ctx.set(name, value);
    ctx.body = { error: caught.message, code: caught.code, ...(caught.details ? { details: caught.details } : {}) };
  }
};

function loadBody(result: LoadResult, multi: boolean): unknown {
  if (!multi) return result;
  return { queryType: 'regularQuery', results: [result], pivotQuery: result.query, slowQuery: false };
}

export function cubeRoutes(app: AppContext): Router {
  // Compile the models while the server starts, not on the first request.
  loadCube().catch((error) => app.log.error({ err: error }, 'cube models failed to compile'));
  const router = new Router({ prefix: BASE });
  const { pool } = app.database;
  router.use(cubeErrors, bearerCompat);

  router.get('/meta', route(app, { auth: 'required' }, async () => ({ body: await cubeMeta() })));

  router.get('/load', route(app, { auth: 'required', query: QueryParams }, async ({ principal, query }) => {
    if (query.query === undefined) throw new AppError('validation_failed', 'query is required', [{ path: 'query', message: 'Required' }]);
    return { body: loadBody(await cubeLoad(pool, principal, query.query), query.queryType === 'multi') };
  }));
  router.post('/load', route(app, { auth: 'required', body: QueryBody }, async ({ principal, body }) => {
    return { body: loadBody(await cubeLoad(pool, principal, body.query), body.queryType === 'multi') };
  }));

  for (const path of ['/sql', '/dry-run'] as const) {
    const answer = async (tenantId: string, raw: unknown) => (path === '/sql' ? cubeSql({ tenantId }, raw) : cubeDryRun({ tenantId }, raw));
    router.get(path, route(app, { auth: 'required', query: QueryParams }, async ({ principal, query }) => {
      if (query.query === undefined) throw new AppError('validation_failed', 'query is required', [{ path: 'query', message: 'Required' }]);
      return { body: await answer(principal.tenantId, query.query) };
    }));
    router.post(path, route(app, { auth: 'required', body: QueryBody }, async ({ principal, body }) => ({ body: await answer(principal.tenantId, body.query) })));
  }
  return router;
}
