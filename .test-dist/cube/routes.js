import { createHash } from "node:crypto";
import Router from "@koa/router";
import { z } from "zod";
import { AppError } from "../errors.js";
import { continueWait } from "./continueWait.js";
import { cubeDryRun, cubeLoadRequest, cubeMeta, cubeSqlRequest } from "./service.js";
import { packRows } from "./request.js";
import { loadCube } from "./compiler.js";
import { configureCube, cubeSettings } from "./settings.js";
import { toAppError } from "../http/errors.js";
import { route } from "../http/route.js";
const BASE = "/cubejs-api/v1";
const QueryParams = z.object({
  query: z.string().max(1e5).optional(),
  queryType: z.enum(["multi"]).optional(),
  castNumerics: z.enum(["true", "false"]).optional()
});
const QueryBody = z.object({ query: z.unknown().optional(), queryType: z.enum(["multi"]).optional(), castNumerics: z.boolean().optional() });
const bearerCompat = async (ctx, next) => {
  const header = ctx.get("authorization");
  if (header.startsWith("gai_")) ctx.req.headers.authorization = `Bearer ${header}`;
  await next();
};
function reason(error) {
  if (error.message === "Validation failed" && error.details?.length) return error.details.map((d) => `${d.path}: ${d.message}`).join("; ");
  return error.message;
}
function cubeErrors(app) {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      const requestId = ctx.state.requestId;
      if (error.code === "internal") app.log.error({ err: caught, requestId, path: ctx.path }, "unhandled error");
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      const message = error.code === "internal" ? `Internal server error (request ${requestId})` : reason(error);
      ctx.body = { error: message, code: error.code, ...error.details ? { details: error.details } : {}, requestId };
    }
  };
}
function present(result, requestId, castNumerics) {
  const numeric = Object.entries({ ...result.annotation.measures, ...result.annotation.dimensions }).filter(([, a]) => a.type === "number").map(([k]) => k);
  const data = castNumerics || numeric.length === 0 ? result.data : result.data.map((row) => {
    const out = { ...row };
    for (const key of numeric) {
      const value = out[key];
      if (typeof value === "number") out[key] = Number.isFinite(value) ? String(value) : null;
    }
    return out;
  });
  return { ...result, data: packRows(result.query.responseFormat, data), requestId };
}
function cubeRoutes(app) {
  configureCube({ queryTimeoutMs: app.config.cube.queryTimeoutSeconds * 1e3, continueWaitMs: app.config.cube.continueWaitSeconds * 1e3 });
  loadCube().catch(() => {
  });
  const router = new Router();
  const { pool } = app.database;
  router.use(cubeErrors(app), bearerCompat);
  router.get(`${BASE}/meta`, route(app, { auth: "required" }, async () => ({ body: await cubeMeta() })));
  const load = async (ctx, tenantId, input, multi, castNumerics) => {
    const requestId = ctx.state.requestId;
    const key = createHash("sha256").update(JSON.stringify([tenantId, input, multi])).digest("base64");
    const outcome = await continueWait(key, cubeSettings().continueWaitMs, () => cubeLoadRequest(pool, { tenantId }, input, { multi }));
    if (!outcome.done) return { body: { error: "Continue wait", requestId } };
    const answer = outcome.value;
    if ("results" in answer) return { body: { ...answer, results: answer.results.map((r) => present(r, requestId, castNumerics)) } };
    return { body: present(answer, requestId, castNumerics) };
  };
  router.get(`${BASE}/load`, route(app, { auth: "required", query: QueryParams }, async ({ ctx, principal, query }) => load(ctx, principal.tenantId, query.query, query.queryType === "multi", query.castNumerics === "true")));
  router.post(`${BASE}/load`, route(app, { auth: "required", body: QueryBody, whenReadOnly: "allowed" }, async ({ ctx, principal, body }) => load(ctx, principal.tenantId, body.query, body.queryType === "multi", body.castNumerics === true)));
  for (const path of ["/sql", "/dry-run"]) {
    const answer = async (tenantId, raw) => path === "/sql" ? cubeSqlRequest({ tenantId }, raw) : cubeDryRun({ tenantId }, raw);
    router.get(`${BASE}${path}`, route(app, { auth: "required", query: QueryParams }, async ({ principal, query }) => ({ body: await answer(principal.tenantId, query.query) })));
    router.post(`${BASE}${path}`, route(app, { auth: "required", body: QueryBody, whenReadOnly: "allowed" }, async ({ principal, body }) => ({ body: await answer(principal.tenantId, body.query) })));
  }
  router.all(/^\/cubejs-api(\/.*)?$/, (ctx) => {
    throw new AppError("not_found", `Not found: ${ctx.method} ${ctx.path} is not served (Cube's REST API here: /cubejs-api/v1/meta, load, sql, dry-run)`);
  });
  return router;
}
export {
  QueryBody,
  cubeRoutes
};
