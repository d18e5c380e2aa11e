/**
 * The OpenAPI 3.1 document of the webhook API, generated from the zod schemas that validate the
 * requests (OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what `z.toJSONSchema` writes).
 */
import { z } from 'zod';
import { DeploymentWebhook, IssueWebhook, WEBHOOK_BODY_LIMIT, WebhookError, WebhookSuccess, WebhookValidationError } from './schemas.js';
import { LIMITS } from '../http/rateLimit.js';

const COMPONENTS = { IssueWebhook, DeploymentWebhook, WebhookSuccess, WebhookValidationError, WebhookError };

/** The schemas (registered by id through `.meta({id})`) as OpenAPI components, references included. */
function components(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  return Object.fromEntries(
    Object.keys(COMPONENTS).map((id) => {
      const { $schema: _schema, id: _id, ...schema } = schemas[id] as Record<string, unknown>;
      return [id, schema];
    }),
  );
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

const rateLimitHeaders = {
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed in the tightest window' },
  'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in that window' },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until that window resets' },
};

function operation(summary: string, requestRef: string, example: unknown) {
  return {
    summary,
    security: [{ apiKey: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${requestRef}` }, example } } },
    responses: {
      '201': { description: 'Created: no record had this externalId in the tenant', headers: rateLimitHeaders, content: json('WebhookSuccess') },
      '200': { description: 'Updated: the record with this externalId was replaced', headers: rateLimitHeaders, content: json('WebhookSuccess') },
      '400': { description: 'Validation failed; every problem is listed (also a non-JSON content type or malformed JSON)', content: json('WebhookValidationError') },
      '401': { description: 'Missing or invalid API key: {"error":"Unauthorized"}', content: json('WebhookError') },
      '413': { description: `Body larger than ${WEBHOOK_BODY_LIMIT} bytes: {"error":"Payload too large"}`, content: json('WebhookError') },
      '429': {
        description: `More than ${LIMITS.webhookMinute.points} requests a minute or ${LIMITS.webhookHour.points} an hour for this API key`,
        headers: { ...rateLimitHeaders, 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
        content: json('WebhookError'),
      },
      '500': { description: '{"error":"Internal server error"}', content: json('WebhookError') },
    },
  };
}

export function webhookOpenApi(appUrl: string) {
  const example = (schema: z.ZodType) => (z.globalRegistry.get(schema)?.examples as unknown[] | undefined)?.[0];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Delivery analytics API',
      version: '1',
      description:
        'The general API (`/api/…`, generated from the route table) and the webhook API v1: push issues and deployments; each webhook call creates or replaces the record matched on tenant + provider (manual) + externalId, so repeating a request is safe.',
    },
    servers: [{ url: appUrl }],
    paths: {
      '/api/webhooks/v1/issues': { post: operation('Create or update an issue', 'IssueWebhook', example(IssueWebhook)) },
      '/api/webhooks/v1/deployments': { post: operation('Create or update a deployment', 'DeploymentWebhook', example(DeploymentWebhook)) },
    },
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, gai_…' } },
      schemas: components(),
    },
  };
}
