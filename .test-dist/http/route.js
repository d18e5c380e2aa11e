import { z } from "zod";
import { authenticate } from "../auth/authenticate.js";
import { checkOrigin } from "../auth/csrf.js";
import { authorize } from "../auth/policies.js";
import { AppError } from "../errors.js";
import { checkJsonValue } from "../shared/limits.js";
import { readBody } from "./body.js";
import { issueMessage } from "./issueMessages.js";
import { consume, headersOf, LIMITS } from "./rateLimit.js";
import { asSystem, withTenant } from "../db/tenancy.js";
import { assertWritable } from "../billing/entitlements.js";
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SAFE_METHODS = /* @__PURE__ */ new Set(["GET", "HEAD", "OPTIONS"]);
function valueAt(input, path) {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.prototype.hasOwnProperty.call(value, key)) return void 0;
    value = value[key];
  }
  return value;
}
function zodDetails(error, prefix, input) {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((p) => p !== void 0 && p !== "").join(".");
    const missing = (issue.code === "invalid_type" || issue.code === "invalid_value") && input !== void 0 && valueAt(input, issue.path) === void 0;
    const message = issue.code === "invalid_key" ? issue.issues[0]?.message ?? issue.message : issue.message;
    return { path: path || (prefix ?? "body"), message: missing ? "Required" : message };
  });
}
function parse(schema, value, where) {
  if (!schema) return void 0;
  if (where !== "body") {
    const details = checkJsonValue(value, 2, where);
    if (details.length > 0) throw new AppError("validation_failed", "Validation failed", details);
  }
  const result = schema.safeParse(value, { error: issueMessage });
  if (!result.success) {
    throw new AppError("validation_failed", "Validation failed", zodDetails(result.error, where === "body" ? void 0 : where, value));
  }
  return result.data;
}
function limitsFor(spec, principal) {
  if (spec.limit === "none") return null;
  if (!principal) return null;
  const key = principal.kind === "admin" ? "admin" : principal.kind === "api_key" ? `key:${principal.apiKeyId}` : `user:${principal.tenantId}:${principal.userId}`;
  return { key, limits: [LIMITS.general] };
}
function inScopeOf(spec, principal, work) {
  if (spec.system) return asSystem(spec.system, work);
  if (principal?.tenantId) return withTenant(principal.tenantId, work);
  if (principal?.kind === "admin") return asSystem("operator", work);
  return work();
}
function route(app, spec, handler) {
  return async (ctx) => {
    let principal = null;
    if (spec.auth !== "none") {
      const hasBearer = ctx.get("authorization") !== "";
      principal = spec.apiKeyOnly && !hasBearer ? null : await authenticate(app, ctx.req, ctx.res);
      if (spec.apiKeyOnly && principal && principal.kind !== "api_key") principal = null;
    }
    const limited = limitsFor(spec, principal) ?? (spec.limit === "none" ? null : { key: `ip:${ctx.ip}`, limits: [LIMITS.anonymous] });
    if (limited) {
      const state = await consume(app, limited.key, limited.limits);
      ctx.set(headersOf(state));
    }
    const tenantUser = spec.auth === "required" || typeof spec.auth === "object";
    if (tenantUser || spec.auth === "admin") {
      if (!principal) throw new AppError("unauthorized", "Missing or invalid credentials");
    }
    if (tenantUser && principal?.kind === "admin") {
      throw new AppError("forbidden", "The global administrator has no tenant; use an account of the tenant");
    }
    if (typeof spec.auth === "object") authorize(principal, spec.auth.policy);
    if (spec.auth === "admin" && principal?.kind !== "admin") throw new AppError("forbidden", "Only the global administrator can do this");
    if (principal?.kind === "session" && !SAFE_METHODS.has(ctx.method)) checkOrigin(ctx, app.config.appUrl);
    if (principal?.tenantId && !spec.system && !spec.whenReadOnly && !SAFE_METHODS.has(ctx.method) && app.config.billing) {
      const tenantId = principal.tenantId;
      await withTenant(tenantId, () => assertWritable(app, tenantId));
    }
    const params = parse(spec.params, ctx.params, "params");
    const query = parse(spec.query, ctx.query, "query");
    let body = void 0;
    if (spec.body || spec.bodyKind) {
      const raw = await readBody(ctx, spec.bodyKind ?? "json", spec.bodyLimit ?? DEFAULT_BODY_LIMIT);
      body = spec.body ? parse(spec.body, raw, "body") : raw;
    }
    const work = () => Promise.resolve(handler({ ctx, principal, query, body, params }));
    const result = await inScopeOf(spec, principal, work);
    if (!result) return;
    if (result.headers) ctx.set(result.headers);
    if (result.type) ctx.type = result.type;
    ctx.status = result.status ?? 200;
    if (result.body !== void 0) ctx.body = result.body;
  };
}
const Paging = z.object({
  page: z.coerce.number().int().min(1).max(1e5).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25)
});
function listEnvelope(data, paging, total) {
  return { data, meta: { page: paging.page, perPage: paging.perPage, total } };
}
function download(file) {
  return {
    type: file.contentType,
    headers: { "Content-Disposition": `attachment; filename="${file.filename}"`, "Cache-Control": "no-store" },
    body: file.body
  };
}
export {
  DEFAULT_BODY_LIMIT,
  Paging,
  download,
  listEnvelope,
  route,
  zodDetails
};
