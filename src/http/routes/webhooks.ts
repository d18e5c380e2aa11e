/**
 * Webhook API v1: POST /api/webhooks/v1/issues and /deployments (bearer API key only, 100 a
 * minute and 1000 an hour per key), and GET /api/openapi.json, the document generated from the
 * same schemas that validate. Errors use the webhook envelope (src/http/errors.ts).
 */
import Router from '@koa/router';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import { presentWebhookResult } from '../../presenters/webhooks.js';
import { DeploymentWebhook, IssueWebhook, WEBHOOK_BODY_LIMIT } from '../../schemas/webhooks.js';
import { upsertDeployment, upsertIssue } from '../../services/webhooks.js';
import { webhookOpenApi } from '../openapi.js';
import { route } from '../route.js';

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

const WEBHOOK = { auth: 'required', apiKeyOnly: true, limit: 'webhook', bodyKind: 'json', bodyLimit: WEBHOOK_BODY_LIMIT } as const;

export function webhookRoutes(app: AppContext): Router {
  const router = new Router();
  const { pool } = app.database;

  router.post('/api/webhooks/v1/issues', route(app, WEBHOOK, async ({ principal, body }) => {
    return presentWebhookResult(await upsertIssue(pool, principal, validateWebhook(IssueWebhook, body)));
  }));

  router.post('/api/webhooks/v1/deployments', route(app, WEBHOOK, async ({ principal, body }) => {
    return presentWebhookResult(await upsertDeployment(pool, principal, validateWebhook(DeploymentWebhook, body)));
  }));

  const document = JSON.stringify(webhookOpenApi(app.config.appUrl));
  router.get('/api/openapi.json', route(app, { auth: 'none', limit: 'none' }, () => ({ body: document, type: 'application/json' })));

  return router;
}
