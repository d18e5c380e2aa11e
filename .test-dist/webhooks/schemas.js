import { z } from "zod";
import { freeObject, int32, pgTimestamp } from "../shared/limits.js";
import { Uuid } from "../shared/schemas.js";
const ISSUE_TYPES = ["feature", "bug", "chore", "discovery", "incident", "other"];
const ISSUE_STATES = ["open", "closed", "in_progress"];
const ENVIRONMENTS = ["production", "staging", "development", "qa", "preview", "other"];
const DEPLOYMENT_STATUSES = ["pending", "queued", "in_progress", "success", "failure", "error", "inactive"];
const WEBHOOK_BODY_LIMIT = 512 * 1024;
const FIELD_LIMITS = {
  projectKey: 255,
  externalId: 255,
  title: 1e3,
  body: 1e5,
  url: 2048,
  username: 255,
  ref: 1e3,
  task: 100,
  description: 1e4,
  label: 255,
  labels: 100
};
const text = (max) => z.string().min(1, { error: "Must not be empty", abort: true }).max(max, `Must be at most ${max} characters`);
const optionalText = (max) => z.string().max(max, `Must be at most ${max} characters`);
const projectKey = text(FIELD_LIMITS.projectKey).regex(/^[^\s/]+(\/[^\s/]+)+$/, "Must have the form <owner>/<repo>").meta({ description: "Project identifier, <owner>/<repo>; a missing project is created", example: "acme/web" });
const externalId = text(FIELD_LIMITS.externalId).meta({ description: "Unique id in the source system; the upsert key" });
const timestamp = pgTimestamp().meta({
  description: "ISO 8601 with an offset (within \xB115:59), from 1970 to 9999",
  example: "2024-05-01T12:00:00Z"
});
const sha = z.string().regex(/^[0-9a-fA-F]{7,40}$/, "Must be 7 to 40 hexadecimal characters").meta({ description: "Commit hash, 7 to 40 hexadecimal characters (stored lowercase)" });
const metadata = freeObject("Free key-value data; stored as given, not indexed");
const IssueWebhook = z.strictObject({
  projectKey,
  externalId,
  title: text(FIELD_LIMITS.title),
  type: z.enum(ISSUE_TYPES),
  state: z.enum(ISSUE_STATES),
  number: int32(1).optional().meta({ description: "Issue number in the project; generated (next in the project) when omitted, kept on update" }),
  body: optionalText(FIELD_LIMITS.body).optional().meta({ description: "Description" }),
  url: optionalText(FIELD_LIMITS.url).optional().meta({ description: "Link to the source issue" }),
  authorUsername: optionalText(FIELD_LIMITS.username).optional().meta({ description: "Creator" }),
  assigneeUsername: optionalText(FIELD_LIMITS.username).optional().meta({ description: "Primary assignee" }),
  labels: z.array(text(FIELD_LIMITS.label)).max(FIELD_LIMITS.labels, `At most ${FIELD_LIMITS.labels} labels`).optional().meta({ description: "Label names" }),
  createdAt: timestamp.optional().meta({ description: "Defaults to now on creation; kept on update when omitted" }),
  closedAt: timestamp.nullable().optional().meta({ description: "Defaults to now when state is closed and the field is omitted; null clears it" }),
  metadata: metadata.optional()
}).meta({
  id: "IssueWebhook",
  examples: [
    {
      projectKey: "acme/web",
      externalId: "JIRA-1234",
      title: "Checkout fails for saved cards",
      type: "incident",
      state: "closed",
      labels: ["payments", "sev2"],
      createdAt: "2024-05-01T09:30:00Z",
      closedAt: "2024-05-01T11:05:00Z",
      metadata: { causedByDeployment: "deploy-8812" }
    }
  ]
});
const DeploymentWebhook = z.strictObject({
  projectKey,
  externalId,
  ref: text(FIELD_LIMITS.ref).meta({ description: "Branch or tag deployed" }),
  sha,
  environment: z.enum(ENVIRONMENTS),
  status: z.enum(DEPLOYMENT_STATUSES),
  task: text(FIELD_LIMITS.task).optional().meta({ description: "Default deploy; rollback when isRollback is true" }),
  description: optionalText(FIELD_LIMITS.description).optional(),
  url: optionalText(FIELD_LIMITS.url).optional(),
  creatorUsername: optionalText(FIELD_LIMITS.username).optional().meta({ description: "Deployer" }),
  isProduction: z.boolean().optional().meta({ description: "Overrides production detection; when absent, environment production decides" }),
  isRollback: z.boolean().optional().meta({ description: "When true, task is set to rollback" }),
  rollbackFromSha: sha.nullable().optional(),
  createdAt: timestamp.optional().meta({ description: "Defaults to now on creation; kept on update when omitted" }),
  metadata: metadata.optional()
}).meta({
  id: "DeploymentWebhook",
  examples: [
    {
      projectKey: "acme/web",
      externalId: "deploy-8812",
      ref: "main",
      sha: "9fceb02d0ae598e95dc970b74767f19372d61af8",
      environment: "production",
      status: "success",
      creatorUsername: "ci-bot",
      createdAt: "2024-05-01T09:00:00Z"
    }
  ]
});
const WebhookSuccess = z.object({
  success: z.literal(true),
  action: z.enum(["created", "updated"]),
  id: Uuid.meta({ description: "Record id" }),
  externalId: z.string().meta({ description: "Echo of the request value" })
}).meta({ id: "WebhookSuccess" });
const WebhookValidationError = z.object({
  error: z.literal("Validation failed"),
  details: z.array(z.object({ path: z.string(), message: z.string() }))
}).meta({ id: "WebhookValidationError" });
const WebhookError = z.object({ error: z.string().meta({ examples: ["Unauthorized", "Too many requests", "Internal server error"] }) }).meta({ id: "WebhookError" });
export {
  DEPLOYMENT_STATUSES,
  DeploymentWebhook,
  ENVIRONMENTS,
  FIELD_LIMITS,
  ISSUE_STATES,
  ISSUE_TYPES,
  IssueWebhook,
  WEBHOOK_BODY_LIMIT,
  WebhookError,
  WebhookSuccess,
  WebhookValidationError
};
