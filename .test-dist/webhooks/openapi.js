import { z } from "zod";
import { DeploymentWebhook, IssueWebhook, WEBHOOK_BODY_LIMIT, WebhookError, WebhookSuccess, WebhookValidationError } from "./schemas.js";
import { LIMITS } from "../http/rateLimit.js";
const COMPONENTS = { IssueWebhook, DeploymentWebhook, WebhookSuccess, WebhookValidationError, WebhookError };
function components() {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`
  });
  return Object.fromEntries(
    Object.keys(COMPONENTS).map((id) => {
      const { $schema: _schema, id: _id, ...schema } = schemas[id];
      return [id, schema];
    })
  );
}
const json = (ref) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });
const rateLimitHeaders = {
  "RateLimit-Limit": { schema: { type: "integer" }, description: "Requests allowed in the tightest window" },
  "RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left in that window" },
  "RateLimit-Reset": { schema: { type: "integer" }, description: "Seconds until that window resets" }
};
function operation(summary, requestRef, example) {
  return {
    summary,
    security: [{ apiKey: [] }],
    requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${requestRef}` }, example } } },
    responses: {
      "201": { description: "Created: no record had this externalId in the tenant", headers: rateLimitHeaders, content: json("WebhookSuccess") },
      "200": { description: "Updated: the record with this externalId was replaced", headers: rateLimitHeaders, content: json("WebhookSuccess") },
      "400": { description: "Validation failed; every problem is listed (also a non-JSON content type or malformed JSON)", content: json("WebhookValidationError") },
      "401": { description: 'Missing or invalid API key: {"error":"Unauthorized"}', content: json("WebhookError") },
      "413": { description: `Body larger than ${WEBHOOK_BODY_LIMIT} bytes: {"error":"Payload too large"}`, content: json("WebhookError") },
      "429": {
        description: `More than ${LIMITS.webhookMinute.points} requests a minute or ${LIMITS.webhookHour.points} an hour for this API key`,
        headers: { ...rateLimitHeaders, "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait" } },
        content: json("WebhookError")
      },
      "500": { description: '{"error":"Internal server error"}', content: json("WebhookError") }
    }
  };
}
function webhookOpenApi(appUrl) {
  const example = (schema) => z.globalRegistry.get(schema)?.examples?.[0];
  return {
    openapi: "3.1.0",
    info: {
      title: "Delivery analytics webhook API",
      version: "1",
      description: "Push issues and deployments. Each call creates or replaces the record matched on tenant + provider (manual) + externalId; repeating a request is safe."
    },
    servers: [{ url: appUrl }],
    paths: {
      "/api/webhooks/v1/issues": { post: operation("Create or update an issue", "IssueWebhook", example(IssueWebhook)) },
      "/api/webhooks/v1/deployments": { post: operation("Create or update a deployment", "DeploymentWebhook", example(DeploymentWebhook)) }
    },
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key, gai_\u2026" } },
      schemas: components()
    }
  };
}
export {
  webhookOpenApi
};
