import Router from "@koa/router";
import { withTenant } from "../db/tenancy.js";
import { AppError } from "../errors.js";
import { presentWebhookResult } from "./presenters.js";
import { DeploymentWebhook, IssueWebhook, WEBHOOK_BODY_LIMIT } from "./schemas.js";
import { DEPLOYMENT_KIND, ISSUE_KIND, upsertDeployment, upsertIssue } from "./service.js";
import { webhookOpenApi } from "./openapi.js";
import { readBody } from "../http/body.js";
import { route } from "../http/route.js";
import { admit, bearerKey, keyHash, webhookGate } from "./gate.js";
import { WebhookBatcher } from "./batch.js";
import { DataChangeNotifier } from "../live/dataChanged.js";
function validateWebhook(schema, raw) {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const details = [];
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details.push({ path: path ? `${path}.${key}` : key, message: "Unknown field" });
    } else {
      details.push({ path: path || "body", message: path && valueAt(raw, issue.path) === void 0 ? "Required" : issue.message });
    }
  }
  throw new AppError("validation_failed", "Validation failed", details);
}
function valueAt(value, path) {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return void 0;
    current = current[key];
  }
  return current;
}
function webhook(app, endpoint) {
  const { pool } = app.database;
  return async (ctx) => {
    const secret = bearerKey(ctx.headers);
    let input;
    let refusal;
    if (secret !== null) {
      try {
        input = validateWebhook(endpoint.schema, await readBody(ctx, "json", WEBHOOK_BODY_LIMIT));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        refusal = error;
      }
    }
    if (secret === null || input === void 0) {
      await webhookGate(app, ctx);
      throw refusal;
    }
    const row = await endpoint.batcher.submit(keyHash(secret), input);
    const principal = await admit(app, ctx, row);
    const result = row?.record_id ? { action: row.created ? "created" : "updated", id: row.record_id, externalId: input.externalId } : await withTenant(principal.tenantId, () => endpoint.upsert(pool, principal, input));
    endpoint.changes.changed(principal.tenantId, endpoint.fact);
    const { status, body } = presentWebhookResult(result);
    ctx.status = status;
    ctx.body = body;
  };
}
function webhookRoutes(app) {
  const router = new Router();
  const { pool } = app.database;
  const changes = new DataChangeNotifier(app.live, (error) => app.log.warn({ err: error }, "data.changed event not published"));
  const issues = { schema: IssueWebhook, batcher: new WebhookBatcher(pool, "webhook-issues", ISSUE_KIND), upsert: upsertIssue, fact: "issues", changes };
  const deployments = {
    schema: DeploymentWebhook,
    batcher: new WebhookBatcher(pool, "webhook-deployments", DEPLOYMENT_KIND),
    upsert: upsertDeployment,
    fact: "deployments",
    changes
  };
  router.post("/api/webhooks/v1/issues", webhook(app, issues));
  router.post("/api/webhooks/v1/deployments", webhook(app, deployments));
  const document = JSON.stringify(webhookOpenApi(app.config.appUrl));
  router.get("/api/openapi.json", route(app, { auth: "none", limit: "none" }, () => ({ body: document, type: "application/json" })));
  return router;
}
export {
  validateWebhook,
  webhookRoutes
};
