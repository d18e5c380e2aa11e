/**
 * Issues and deployments pushed by external tools (webhook API v1; any future CLI or job calls
 * the same functions). Each call is ONE SQL statement, so it is atomic and safe under concurrency:
 * - the project is found or created (`provider` and `sourceType` manual, the sync flags true);
 * - for an issue without `number`, the next number of the project is taken from
 *   `projects.issue_seq` under the project's row lock (an explicit number pushes the counter
 *   forward so a generated one never collides with it);
 * - the record is upserted on (tenant_id, provider, external_id); `xmax = 0` tells an insert
 *   from an update, so exactly one of many simultaneous first posts reports `created`.
 * A first post racing another first post of the same new project can find neither the project
 * (created after our snapshot) nor create it (the other one did): the statement then returns no
 * row and is run again, and the second run sees the committed project.
 */
import type { Pool } from 'pg';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import type { DeploymentWebhook, IssueWebhook } from '../schemas/webhooks.js';

export const WEBHOOK_PROVIDER = 'manual';

export interface UpsertResult {
  action: 'created' | 'updated';
  id: string;
  externalId: string;
}

type Queryable = Pick<Pool, 'query'>;

// `tenant` is one row (the principal's tenant) or none; with none, the statement writes nothing.
const PROJECT_CTE = `
  existing AS (
    SELECT id FROM projects WHERE tenant_id = (SELECT id FROM tenant) AND provider = 'manual' AND project_key = $2::text
  ), created_project AS (
    INSERT INTO projects (tenant_id, provider, project_key, source_type, sync_issues, sync_pull_requests, sync_deployments, issue_seq)
    SELECT tenant.id, 'manual', $2::text, 'manual', true, true, true, %SEQ%
    FROM tenant WHERE NOT EXISTS (SELECT 1 FROM existing)
    ON CONFLICT (tenant_id, provider, project_key) DO NOTHING
    RETURNING id, issue_seq
  )`;

const UPSERT_DEPLOYMENT = `
${PROJECT_CTE.replace('%SEQ%', '0')}, project AS (
  SELECT id FROM existing UNION ALL SELECT id FROM created_project
), rec AS (
INSERT INTO deployments AS d (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task,
  description, url, creator_username, is_production, is_rollback, rollback_from_sha, metadata, created_at)
SELECT (SELECT id FROM tenant), project.id, 'manual', $3::text, $4::text, $5::text, $6::text, $7::text, $8::text,
  $9::text, $10::text, $11::text, $12::boolean, $13::boolean, $14::text, $15::jsonb, COALESCE($16::timestamptz, now())
FROM project
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id, ref = EXCLUDED.ref, sha = EXCLUDED.sha, environment = EXCLUDED.environment,
  status = EXCLUDED.status, task = EXCLUDED.task, description = EXCLUDED.description, url = EXCLUDED.url,
  creator_username = EXCLUDED.creator_username, is_production = EXCLUDED.is_production,
  is_rollback = EXCLUDED.is_rollback, rollback_from_sha = EXCLUDED.rollback_from_sha, metadata = EXCLUDED.metadata,
  created_at = COALESCE($16::timestamptz, d.created_at), updated_at = now()
RETURNING id, (xmax = 0) AS created
)`;

// $4 is the explicit number or NULL. `prior` and `existing` read the statement's snapshot; the
// UPDATE of the project row re-reads the latest committed counter after waiting for its lock, so
// two concurrent generations never get the same number (a lost race only leaves a gap).
const UPSERT_ISSUE = `
${PROJECT_CTE.replace('%SEQ%', 'COALESCE($4::int, 1)')}, prior AS (
  SELECT project_id, number FROM issues WHERE tenant_id = (SELECT id FROM tenant) AND provider = 'manual' AND external_id = $3::text
), bumped AS (
  UPDATE projects p SET issue_seq = CASE WHEN $4::int IS NULL THEN p.issue_seq + 1 ELSE $4::int END
  FROM existing e
  WHERE p.id = e.id AND CASE
    WHEN $4::int IS NULL THEN NOT EXISTS (SELECT 1 FROM prior WHERE prior.project_id = e.id)
    ELSE p.issue_seq < $4::int END
  RETURNING p.id, p.issue_seq
), project AS (
  SELECT e.id, COALESCE($4::int, b.issue_seq, (SELECT number FROM prior LIMIT 1)) AS number
  FROM existing e LEFT JOIN bumped b ON b.id = e.id
  UNION ALL
  SELECT id, COALESCE($4::int, issue_seq) FROM created_project
), rec AS (
INSERT INTO issues AS i (tenant_id, project_id, provider, external_id, number, title, type, state, body, url,
  author_username, assignee_username, labels, metadata, created_at, closed_at)
SELECT (SELECT id FROM tenant), project.id, 'manual', $3::text, project.number, $5::text, $6::text, $7::text, $8::text, $9::text,
  $10::text, $11::text, $12::text[], $13::jsonb, COALESCE($14::timestamptz, now()),
  CASE WHEN $16::boolean THEN $15::timestamptz WHEN $7::text = 'closed' THEN now() END
FROM project
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id,
  number = CASE WHEN $4::int IS NOT NULL OR i.project_id <> EXCLUDED.project_id THEN EXCLUDED.number ELSE i.number END,
  title = EXCLUDED.title, type = EXCLUDED.type, state = EXCLUDED.state, body = EXCLUDED.body, url = EXCLUDED.url,
  author_username = EXCLUDED.author_username, assignee_username = EXCLUDED.assignee_username,
  labels = EXCLUDED.labels, metadata = EXCLUDED.metadata,
  created_at = COALESCE($14::timestamptz, i.created_at),
  closed_at = CASE WHEN $16::boolean THEN $15::timestamptz WHEN EXCLUDED.state = 'closed' THEN COALESCE(i.closed_at, now()) END,
  updated_at = now()
RETURNING id, (xmax = 0) AS created
)`;

/**
 * The upsert statements as `WITH tenant AS (<tenantSql>), … rec AS (…)` plus `tail`; the plain
 * form selects `$1` as the tenant, the webhook gate (src/http/webhookGate.ts) puts its own CTEs
 * in front and takes the tenant from the API key, so a request costs one round trip.
 */
export function issueUpsertSql(prefix: string, tenantSql: string, tail: string): string {
  return `WITH ${prefix}tenant AS (${tenantSql}), ${UPSERT_ISSUE} ${tail}`;
}
export function deploymentUpsertSql(prefix: string, tenantSql: string, tail: string): string {
  return `WITH ${prefix}tenant AS (${tenantSql}), ${UPSERT_DEPLOYMENT} ${tail}`;
}

const PLAIN_TENANT = 'SELECT $1::uuid AS id';
const PLAIN_TAIL = 'SELECT id, created FROM rec';
const PLAIN_ISSUE = issueUpsertSql('', PLAIN_TENANT, PLAIN_TAIL);
const PLAIN_DEPLOYMENT = deploymentUpsertSql('', PLAIN_TENANT, PLAIN_TAIL);

const ATTEMPTS = 3;

async function runUpsert(db: Queryable, name: string, text: string, values: unknown[], externalId: string): Promise<UpsertResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query<{ id: string; created: boolean }>({ name, text, values });
    const row = rows[0];
    if (row) return { action: row.created ? 'created' : 'updated', id: row.id, externalId };
  }
  throw new AppError('internal', 'project could not be found or created');
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const json = (value: Record<string, unknown> | undefined): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * Creates or replaces the issue `externalId` of the principal's tenant. Replacing means every
 * field takes the posted value (an omitted optional field is cleared), except `createdAt` and
 * `number`, which keep their stored values when omitted, and `closedAt`, which defaults to the
 * stored close time, or now, while the state is closed.
 */
export async function upsertIssue(db: Queryable, principal: TenantPrincipal, input: IssueWebhook): Promise<UpsertResult> {
  return runUpsert(db, 'webhook-upsert-issue', PLAIN_ISSUE, issueParams(principal.tenantId, input), input.externalId);
}

/** Parameters $1–$16 of the issue upsert; `first` is $1 (the tenant id in the plain form). */
export function issueParams(first: string, input: IssueWebhook): unknown[] {
  return [
    first,
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
    input.labels ?? [],
    json(input.metadata),
    orNull(input.createdAt),
    orNull(input.closedAt),
    input.closedAt !== undefined,
  ];
}

/**
 * Creates or replaces the deployment `externalId` of the principal's tenant. `task` is
 * `rollback` when `isRollback` is true, else the posted task or `deploy`; `isProduction` is
 * stored as given (NULL when omitted, see `isProductionDeployment`); hashes are stored lowercase.
 */
export async function upsertDeployment(db: Queryable, principal: TenantPrincipal, input: DeploymentWebhook): Promise<UpsertResult> {
  return runUpsert(db, 'webhook-upsert-deployment', PLAIN_DEPLOYMENT, deploymentParams(principal.tenantId, input), input.externalId);
}

/** Parameters $1–$16 of the deployment upsert; `first` is $1 (the tenant id in the plain form). */
export function deploymentParams(first: string, input: DeploymentWebhook): unknown[] {
  const isRollback = input.isRollback ?? false;
  return [
    first,
    input.projectKey,
    input.externalId,
    input.ref,
    input.sha.toLowerCase(),
    input.environment,
    input.status,
    isRollback ? 'rollback' : (input.task ?? 'deploy'),
    orNull(input.description),
    orNull(input.url),
    orNull(input.creatorUsername),
    orNull(input.isProduction),
    isRollback,
    input.rollbackFromSha == null ? null : input.rollbackFromSha.toLowerCase(),
    json(input.metadata),
    orNull(input.createdAt),
  ];
}

/**
 * Production detection of METRICS.md: `isProduction` when the sender gave it, otherwise
 * `environment = 'production'`. `PRODUCTION_SQL` is the same rule for queries over `deployments`.
 */
export function isProductionDeployment(d: { isProduction: boolean | null; environment: string }): boolean {
  return d.isProduction ?? d.environment === 'production';
}
export const PRODUCTION_SQL = `COALESCE(is_production, environment = 'production')`;
