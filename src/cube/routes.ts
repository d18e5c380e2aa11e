/**
 * Cube's REST protocol (`/cubejs-api/v1/*`), served by us so that `@cubejs-client/core` and other
 * Cube clients work against the service. Authenticated like the general API; the tenant is the
 * principal's. Every error, whatever its status, is Cube's body `{error: <the reason>}` (plus our
 * `code`, `details` and `requestId`). What is and is not supported: docs/cube.md.
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { continueWait } from './continueWait.js';
import { cubeDryRun, cubeLoadRequest, cubeMeta, cubeSqlRequest, type LoadResult, type MultiLoadResult, type ValidQuery } from './service.js';
import { packRows, type PackedData } from './request.js';
import { loadCube } from './compiler.js';
import { configureCube, cubeSettings } from './settings.js';
import { toAppError } from '../http/errors.js';
import { route, type ApiRouter } from '../http/route.js';
import { QueryBody, QueryParams } from './schemas.js';

const BASE = '/cubejs-api/v1';

/** Cube clients send the token bare (`Authorization: gai_…`); the general API expects a Bearer. */
const bearerCompat: Koa.Middleware = async (ctx, next) => {
  const header = ctx.get('authorization');
  if (header.startsWith('gai_')) ctx.req.headers.authorization = `Bearer ${header}`;
  await next();
};

/** The reason a client shows: a route's "Validation failed" says which fields and why. */
function reason(error: AppError): string {
  if (error.message === 'Validation failed' && error.details?.length) return error.details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return error.message;
}

function cubeErrors(app: AppContext): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      const requestId = ctx.state.requestId as string;
      if (error.code === 'internal') app.log.error({ err: caught, requestId, path: ctx.path }, 'unhandled error');
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      const message = error.code === 'internal' ? `Internal server error (request ${requestId})` : reason(error);
      ctx.body = { error: message, code: error.code, ...(error.details ? { details: error.details } : {}), requestId };
    }
  };
}

type PresentedResult = Omit<LoadResult, 'data'> & { data: PackedData };

/**
 * Numbers as Cube sends them: measures and numeric dimensions as strings, unless castNumerics;
 * `data` in the query's responseFormat (rows, compact or columnar).
 */
function present(result: LoadResult, requestId: string, castNumerics: boolean): PresentedResult {
  const numeric = Object.entries({ ...result.annotation.measures, ...result.annotation.dimensions }).filter(([, a]) => a.type === 'number').map(([k]) => k);
  const data =
    castNumerics || numeric.length === 0
      ? result.data
      : result.data.map((row) => {
          const out = { ...row };
          for (const key of numeric) {
            const value = out[key];
            if (typeof value === 'number') out[key] = Number.isFinite(value) ? String(value) : null;
          }
          return out;
        });
  return { ...result, data: packRows(result.query.responseFormat as ValidQuery['responseFormat'], data), requestId };
}

export function cubeRoutes(app: AppContext) {
  configureCube({ queryTimeoutMs: app.config.cube.queryTimeoutSeconds * 1000, continueWaitMs: app.config.cube.continueWaitSeconds * 1000, compileCacheDir: app.config.cube.compileCacheDir });
  // Compile the models while the server starts, not on the first request (startServer waits for
  // it before listening, and logs the outcome).
  loadCube().catch(() => {});
  const router: ApiRouter = new Router();
  const { pool } = app.database;
  router.use(cubeErrors(app), bearerCompat);

  router.get(`${BASE}/meta`, route(app, { auth: 'required' }, async () => ({ body: await cubeMeta() })));

  const load = async (ctx: Koa.Context, tenantId: string, input: unknown, multi: boolean, castNumerics: boolean) => {
    const requestId = ctx.state.requestId as string;
    // A digest: a held query costs its key, and a query may be 100 kB of text.
    const key = createHash('sha256').update(JSON.stringify([tenantId, input, multi])).digest('base64');
    const outcome = await continueWait(key, cubeSettings().continueWaitMs, () => cubeLoadRequest(pool, { tenantId }, input, { multi }));
    if (!outcome.done) return { body: { error: 'Continue wait', requestId } };
    const answer = outcome.value;
    if ('results' in answer) return { body: { ...answer, results: answer.results.map((r) => present(r, requestId, castNumerics)) } satisfies Omit<MultiLoadResult, 'results'> & { results: PresentedResult[] } };
    return { body: present(answer, requestId, castNumerics) };
  };
  router.get(`${BASE}/load`, route(app, { auth: 'required', query: QueryParams }, async ({ ctx, principal, query }) => load(ctx, principal.tenantId, query.query, query.queryType === 'multi', query.castNumerics === 'true')));
  router.post(`${BASE}/load`, route(app, { auth: 'required', body: QueryBody, whenReadOnly: 'allowed' }, async ({ ctx, principal, body }) => load(ctx, principal.tenantId, body.query, body.queryType === 'multi', body.castNumerics === true)));

  // Written out, not looped: each registration adds its route to the router's table (http/route.ts).
  const byQuery = (answer: (tenantId: string, raw: unknown) => Promise<unknown>) => route(app, { auth: 'required', query: QueryParams }, async ({ principal, query }) => ({ body: await answer(principal.tenantId, query.query) }));
  const byBody = (answer: (tenantId: string, raw: unknown) => Promise<unknown>) => route(app, { auth: 'required', body: QueryBody, whenReadOnly: 'allowed' }, async ({ principal, body }) => ({ body: await answer(principal.tenantId, body.query) }));
  const sql = (tenantId: string, raw: unknown) => cubeSqlRequest({ tenantId }, raw);
  const dryRun = (tenantId: string, raw: unknown) => cubeDryRun({ tenantId }, raw);
  router.get(`${BASE}/sql`, byQuery(sql));
  router.post(`${BASE}/sql`, byBody(sql));
  router.get(`${BASE}/dry-run`, byQuery(dryRun));
  router.post(`${BASE}/dry-run`, byBody(dryRun));
  // Everything else under the prefix is a 404 in Cube's body too (never the general API's).
  router.all(/^\/cubejs-api(\/.*)?$/, (ctx) => {
    throw new AppError('not_found', `Not found: ${ctx.method} ${ctx.path} is not served (Cube's REST API here: /cubejs-api/v1/meta, load, sql, dry-run)`);
  });
  return router;
}
