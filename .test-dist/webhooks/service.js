import { AppError } from "../errors.js";
import { sql } from "drizzle-orm";
import { deploymentUpsert, inputRows, issueUpsert, principalTenant, statement } from "./upsertStatement.js";
import { ISSUE_PROVIDERS } from "./upsertStatement.js";
const WEBHOOK_PROVIDER = "manual";
const orNull = (value) => value === void 0 ? null : value;
const json = (value) => value === void 0 ? null : JSON.stringify(value);
const ISSUE_KIND = {
  columns: [
    ["project_key", "text"],
    ["external_id", "text"],
    ["number", "int"],
    ["title", "text"],
    ["type", "text"],
    ["state", "text"],
    ["body", "text"],
    ["url", "text"],
    ["author_username", "text"],
    ["assignee_username", "text"],
    ["labels", "jsonb"],
    ["metadata", "jsonb"],
    ["created_at", "timestamptz"],
    ["closed_at", "timestamptz"],
    ["closed_given", "boolean"]
  ],
  values: (input) => [
    input.projectKey,
    input.externalId,
    orNull(input.number),
    input.title,
    input.type,
    input.state,
    orNull(input.body),
    orNull(input.url),
    orNull(input.authorUsername),
    orNull(input.assigneeUsername),
    json(input.labels ?? []),
    json(input.metadata),
    orNull(input.createdAt),
    orNull(input.closedAt),
    input.closedAt !== void 0
  ],
  steps: issueUpsert("manual")
};
const DEPLOYMENT_KIND = {
  columns: [
    ["project_key", "text"],
    ["external_id", "text"],
    ["ref", "text"],
    ["sha", "text"],
    ["environment", "text"],
    ["status", "text"],
    ["task", "text"],
    ["description", "text"],
    ["url", "text"],
    ["creator_username", "text"],
    ["is_production", "boolean"],
    ["is_rollback", "boolean"],
    ["rollback_from_sha", "text"],
    ["metadata", "jsonb"],
    ["created_at", "timestamptz"]
  ],
  values: (input) => {
    const isRollback = input.isRollback ?? false;
    return [
      input.projectKey,
      input.externalId,
      input.ref,
      input.sha.toLowerCase(),
      input.environment,
      input.status,
      isRollback ? "rollback" : input.task ?? "deploy",
      orNull(input.description),
      orNull(input.url),
      orNull(input.creatorUsername),
      orNull(input.isProduction),
      isRollback,
      input.rollbackFromSha == null ? null : input.rollbackFromSha.toLowerCase(),
      json(input.metadata),
      orNull(input.createdAt)
    ];
  },
  steps: deploymentUpsert()
};
function batchSql(kind, gate, tail) {
  return statement([inputRows(kind.columns), gate, ...kind.steps], tail);
}
function batchValues(kind, items) {
  const arrays = Array.from({ length: kind.columns.length + 2 }, () => []);
  items.forEach((item, ord) => {
    arrays[0].push(ord);
    arrays[1].push(item.keyHash);
    kind.values(item.input).forEach((value, i) => arrays[i + 2].push(value));
  });
  return arrays;
}
const plainSql = (kind, returning = "rec.id, rec.created") => batchSql(kind, principalTenant(kind.columns), `SELECT ${returning} FROM rec`);
const PLAIN_ISSUE = plainSql(ISSUE_KIND);
const PLAIN_DEPLOYMENT = plainSql(DEPLOYMENT_KIND);
const ATTEMPTS = 3;
const CODEHOST_DEPLOYMENT = plainSql({ ...DEPLOYMENT_KIND, steps: deploymentUpsert("codehost") });
function inTransaction(text, values) {
  const parts = text.split(/\$(\d+)/);
  const chunks = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`));
  return sql.join(chunks);
}
async function upsertCodehostDeployment(tx, tenantId, input) {
  const values = [...batchValues(DEPLOYMENT_KIND, [{ keyHash: "", input }]), tenantId];
  const result = await tx.execute(inTransaction(CODEHOST_DEPLOYMENT, values));
  const row = result.rows[0];
  if (!row) throw new AppError("internal", "project could not be found or created");
  return { action: row.created ? "created" : "updated", id: row.id, externalId: input.externalId };
}
const TRACKER_ISSUES = Object.fromEntries(
  ["jira", "linear"].map((provider) => [provider, plainSql({ ...ISSUE_KIND, steps: issueUpsert(provider) }, "rec.id, rec.external_id, rec.created")])
);
async function upsertTrackerIssues(db, tenantId, provider, inputs) {
  if (inputs.length === 0) return [];
  const values = [...batchValues(ISSUE_KIND, inputs.map((input) => ({ keyHash: "", input }))), tenantId];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query({ name: `tracker-upsert-issues-${provider}`, text: TRACKER_ISSUES[provider], values });
    if (rows.length === inputs.length) return rows.map((r) => ({ action: r.created ? "created" : "updated", id: r.id, externalId: r.external_id }));
  }
  throw new AppError("internal", "project could not be found or created");
}
async function runUpsert(db, name, text, kind, tenantId, input) {
  const values = [...batchValues(kind, [{ keyHash: "", input }]), tenantId];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query({ name, text, values });
    const row = rows[0];
    if (row) return { action: row.created ? "created" : "updated", id: row.id, externalId: input.externalId };
  }
  throw new AppError("internal", "project could not be found or created");
}
async function upsertIssue(db, principal, input) {
  return runUpsert(db, "webhook-upsert-issue", PLAIN_ISSUE, ISSUE_KIND, principal.tenantId, input);
}
async function upsertDeployment(db, principal, input) {
  return runUpsert(db, "webhook-upsert-deployment", PLAIN_DEPLOYMENT, DEPLOYMENT_KIND, principal.tenantId, input);
}
function isProductionDeployment(d) {
  return d.isProduction ?? d.environment === "production";
}
const PRODUCTION_SQL = `COALESCE(is_production, environment = 'production')`;
export {
  DEPLOYMENT_KIND,
  ISSUE_KIND,
  ISSUE_PROVIDERS,
  PRODUCTION_SQL,
  WEBHOOK_PROVIDER,
  batchSql,
  batchValues,
  isProductionDeployment,
  upsertCodehostDeployment,
  upsertDeployment,
  upsertIssue,
  upsertTrackerIssues
};
