/**
 * Webhook API v1: POST /api/webhooks/v1/issues and /deployments (bearer API key only, 100 a
 * minute and 1000 an hour per key); their OpenAPI operations (openapi.ts) are served with the
 * general API's at GET /api/openapi.json (app.ts). Errors use the webhook envelope (src/http/errors.ts).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { Pool } from 'pg';
import type { TenantPrincipal } from '../auth/principal.js';
import { withTenant } from '../db/tenancy.js';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { presentWebhookResult } from './presenters.js';
import { DeploymentWebhook, IssueWebhook, WEBHOOK_BODY_LIMIT } from './schemas.js';
import { DEPLOYMENT_KIND, ISSUE_KIND, upsertDeployment, upsertIssue, type UpsertResult } from './service.js';
import { readBody } from '../http/body.js';
import type { ApiRouter } from '../http/route.js';
import { admit, bearerKey, keyHash, webhookGate } from './gate.js';
import { WebhookBatcher } from './batch.js';
import { DataChangeNotifier } from '../live/dataChanged.js';

/**
 * Validates a webhook body, listing every problem at once. Unknown fields are refused, one
 * detail per field named, so a misspelt optional field is caught instead of silently dropped.
 */
export function validateWebhook<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const details: ErrorDetail[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ path: path ? `${path}.${key}` : key, message: 'Unknown field' });
    } else {
      details.push({ path: path || 'body', message: path && valueAt(raw, issue.path) === undefined ? 'Required' : issue.message });
    }
  }
  throw new AppError('validation_failed', 'Validation failed', details);
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

interface Endpoint<S extends z.ZodType<{ externalId: string }>> {
  schema: S;
  batcher: WebhookBatcher<z.infer<S>>;
  /** The plain service function, for the rare second attempt (a project created concurrently). */
  upsert: (db: Pool, principal: TenantPrincipal, input: z.infer<S>) => Promise<UpsertResult>;
  /** The fact named in the `data.changed` live event. */
  fact: 'issues' | 'deployments';
  changes: DataChangeNotifier;
}

/**
 * A webhook endpoint: body → validation → one batched statement (key, limits, upsert) → presenter.
 * The answer is route()'s order: 401, then 429, then a refused body, then the upsert. A refused
 * body (or no bearer key at all) is answered after the gate alone, which writes only counters.
 */
function webhook<S extends z.ZodType<{ externalId: string }>>(app: AppContext, endpoint: Endpoint<S>): Koa.Middleware {
  const { pool } = app.database;
  return async (ctx) => {
    const secret = bearerKey(ctx.headers);
    let input: z.infer<S> | undefined;
    let refusal: AppError | undefined;
    if (secret !== null) {
      try {
        input = validateWebhook(endpoint.schema, await readBody(ctx, 'json', WEBHOOK_BODY_LIMIT));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        refusal = error;
      }
    }
    if (secret === null || input === undefined) {
      await webhookGate(app, ctx);
      throw refusal;
    }

    const row = await endpoint.batcher.submit(keyHash(secret), input);
    const principal = await admit(app, ctx, row);
    const result: UpsertResult = row?.record_id
      ? { action: row.created ? 'created' : 'updated', id: row.record_id, externalId: input.externalId }
      : await withTenant(principal.tenantId, () => endpoint.upsert(pool, principal, input as z.infer<S>));
    endpoint.changes.changed(principal.tenantId, endpoint.fact);
    const { status, body } = presentWebhookResult(result);
    ctx.status = status;
    ctx.body = body;
  };
}

export function webhookRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { pool } = app.database;
  const changes = new DataChangeNotifier(app.live, (error) => app.log.warn({ err: error }, 'data.changed event not published'));
  const issues: Endpoint<typeof IssueWebhook> = { schema: IssueWebhook, batcher: new WebhookBatcher(pool, 'webhook-issues', ISSUE_KIND), upsert: upsertIssue, fact: 'issues', changes };
  const deployments: Endpoint<typeof DeploymentWebhook> = {
    schema: DeploymentWebhook, batcher: new WebhookBatcher(pool, 'webhook-deployments', DEPLOYMENT_KIND), upsert: upsertDeployment, fact: 'deployments', changes,
  };
  router.post('/api/webhooks/v1/issues', webhook(app, issues));
  router.post('/api/webhooks/v1/deployments', webhook(app, deployments));

  return router;
}
