/**
 * Issues and deployments pushed by external tools (webhook API v1; any future CLI or job calls
 * the same functions). Each call is ONE SQL statement, so it is atomic and safe under concurrency
 * (the webhook routes run the same statement for a batch of requests, see src/http/webhookBatch.ts):
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
/** Where issue records come from: the webhook API, or an issue tracker's sync (src/integrations/trackers). */
export const ISSUE_PROVIDERS = ['manual', 'jira', 'linear'] as const;
export type IssueProvider = (typeof ISSUE_PROVIDERS)[number];

export interface UpsertResult {
  action: 'created' | 'updated';
  id: string;
  externalId: string;
}

type Queryable = Pick<Pool, 'query'>;

/**
 * One statement upserts a batch of requests of one kind. Its CTEs read `ok(ord, tenant_id,
 * project_key, external_id, …)`: the requests allowed to write, at most one per externalId (the
 * caller's batching guarantees it, since one INSERT … ON CONFLICT cannot touch a row twice).
 * Rows are locked in a fixed order (projects by (tenant, key) then id, records by (tenant,
 * externalId)) so two batches running at once wait for each other instead of deadlocking.
 *
 * Every lookup by key is a LATERAL subquery with LIMIT 1 over the CTE's rows: the statement is
 * prepared once per connection and its cached plan is made from the statistics of that moment.
 * Written as plain joins, a plan made while the tables were nearly empty scanned every issue of
 * the tenant for each batch, and kept doing it as they grew (measured: 10,000 rows read per batch,
 * 0.09 of the raw upsert rate); a per-row lookup has only one sensible plan, the unique index.
 */
const PROJECTS = `wanted AS MATERIALIZED (
  SELECT DISTINCT tenant_id, project_key FROM ok
), existing AS MATERIALIZED (
  SELECT p.id, w.tenant_id, w.project_key FROM wanted w
  CROSS JOIN LATERAL (SELECT id FROM projects p WHERE p.tenant_id = w.tenant_id AND p.provider = 'manual' AND p.project_key = w.project_key LIMIT 1) p
)`;

const CREATE_PROJECTS = (seq: string, from: string) => `created_project AS (
  INSERT INTO projects (tenant_id, provider, project_key, source_type, sync_issues, sync_pull_requests, sync_deployments, issue_seq)
  SELECT tenant_id, 'manual', project_key, 'manual', true, true, true, ${seq} FROM ${from}
  ORDER BY tenant_id, project_key
  ON CONFLICT (tenant_id, provider, project_key) DO NOTHING
  RETURNING id, tenant_id, project_key, issue_seq
)`;

// A request's own value of a column, read from the ON CONFLICT branch (where only the target row
// and EXCLUDED are in scope) to tell "omitted" from a value the insert filled in.
const sent = (column: string) => `(SELECT o.${column} FROM ok o WHERE o.tenant_id = EXCLUDED.tenant_id AND o.external_id = EXCLUDED.external_id)`;

const DEPLOYMENTS = `${PROJECTS}, ${CREATE_PROJECTS('0', 'wanted w WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.tenant_id = w.tenant_id AND e.project_key = w.project_key)')}, project AS MATERIALIZED (
  SELECT id, tenant_id, project_key FROM existing UNION ALL SELECT id, tenant_id, project_key FROM created_project
), rec AS (
INSERT INTO deployments AS d (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task,
  description, url, creator_username, is_production, is_rollback, rollback_from_sha, metadata, created_at)
SELECT ok.tenant_id, project.id, 'manual', ok.external_id, ok.ref, ok.sha, ok.environment, ok.status, ok.task,
  ok.description, ok.url, ok.creator_username, ok.is_production, ok.is_rollback, ok.rollback_from_sha, ok.metadata, COALESCE(ok.created_at, now())
FROM ok JOIN project ON project.tenant_id = ok.tenant_id AND project.project_key = ok.project_key
ORDER BY ok.tenant_id, ok.external_id
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id, ref = EXCLUDED.ref, sha = EXCLUDED.sha, environment = EXCLUDED.environment,
  status = EXCLUDED.status, task = EXCLUDED.task, description = EXCLUDED.description, url = EXCLUDED.url,
  creator_username = EXCLUDED.creator_username, is_production = EXCLUDED.is_production,
  is_rollback = EXCLUDED.is_rollback, rollback_from_sha = EXCLUDED.rollback_from_sha, metadata = EXCLUDED.metadata,
  created_at = COALESCE(${sent('created_at')}, d.created_at), updated_at = now()
RETURNING id, tenant_id, external_id, (xmax = 0) AS created
)`;

// Issue numbers, per project: an explicit number is kept and moves the project's counter up to it;
// an issue already in the project keeps its number; every other one (new, or moved from another
// project) takes the next numbers after max(counter, explicit numbers of the batch), in request
// order. The counter is read again after its row lock (the UPDATE), so two batches never hand out
// the same number; a batch that loses a race for a new project creates nothing and is run again.
// `provider` is the issue records' source (a literal from ISSUE_PROVIDERS, never input); their
// project is always the `manual` one of the key, the project webhook deployments land in.
const issuesCtes = (provider: IssueProvider) => `${PROJECTS}, prior AS MATERIALIZED (
  SELECT ok.tenant_id, ok.external_id, i.project_id, i.number FROM ok
  CROSS JOIN LATERAL (SELECT project_id, number FROM issues i WHERE i.tenant_id = ok.tenant_id AND i.provider = '${provider}' AND i.external_id = ok.external_id LIMIT 1) i
), placed AS MATERIALIZED (
  SELECT ok.*, e.id AS existing_id, p.number AS prior_number,
    ok.number IS NULL AND (e.id IS NULL OR p.project_id IS DISTINCT FROM e.id) AS generate
  FROM ok
  LEFT JOIN existing e ON e.tenant_id = ok.tenant_id AND e.project_key = ok.project_key
  LEFT JOIN prior p ON p.tenant_id = ok.tenant_id AND p.external_id = ok.external_id
), demand AS MATERIALIZED (
  SELECT tenant_id, project_key, existing_id, (count(*) FILTER (WHERE generate))::int AS gen, COALESCE(max(number), 0) AS top
  FROM placed GROUP BY tenant_id, project_key, existing_id
), ${CREATE_PROJECTS('top + gen', 'demand WHERE existing_id IS NULL')}, locked_projects AS MATERIALIZED (
  SELECT p.id FROM projects p JOIN demand d ON d.existing_id = p.id
  WHERE d.gen > 0 OR d.top > p.issue_seq ORDER BY p.id FOR UPDATE OF p
), bumped AS (
  UPDATE projects p SET issue_seq = GREATEST(p.issue_seq, d.top) + d.gen
  FROM demand d
  WHERE p.id = d.existing_id AND p.id IN (SELECT id FROM locked_projects) AND (d.gen > 0 OR d.top > p.issue_seq)
  RETURNING p.id, p.issue_seq
), project AS MATERIALIZED (
  SELECT d.tenant_id, d.project_key, d.existing_id AS id, b.issue_seq - d.gen AS base
  FROM demand d LEFT JOIN bumped b ON b.id = d.existing_id WHERE d.existing_id IS NOT NULL
  UNION ALL
  SELECT c.tenant_id, c.project_key, c.id, c.issue_seq - d.gen
  FROM created_project c JOIN demand d ON d.tenant_id = c.tenant_id AND d.project_key = c.project_key AND d.existing_id IS NULL
), numbered AS MATERIALIZED (
  SELECT placed.*, project.id AS project_id, CASE
    WHEN placed.number IS NOT NULL THEN placed.number
    WHEN placed.generate THEN project.base + (row_number() OVER (PARTITION BY project.id, placed.generate ORDER BY placed.ord))::int
    ELSE placed.prior_number END AS final_number
  FROM placed JOIN project ON project.tenant_id = placed.tenant_id AND project.project_key = placed.project_key
), rec AS (
INSERT INTO issues AS i (tenant_id, project_id, provider, external_id, number, title, type, state, body, url,
  author_username, assignee_username, labels, metadata, created_at, closed_at)
SELECT n.tenant_id, n.project_id, '${provider}', n.external_id, n.final_number, n.title, n.type, n.state, n.body, n.url,
  n.author_username, n.assignee_username, ARRAY(SELECT jsonb_array_elements_text(n.labels)), n.metadata, COALESCE(n.created_at, now()),
  CASE WHEN n.closed_given THEN n.closed_at WHEN n.state = 'closed' THEN now() END
FROM numbered n
ORDER BY n.tenant_id, n.external_id
ON CONFLICT (tenant_id, provider, external_id) DO UPDATE SET
  project_id = EXCLUDED.project_id,
  number = CASE WHEN ${sent('number')} IS NOT NULL OR i.project_id <> EXCLUDED.project_id THEN EXCLUDED.number ELSE i.number END,
  title = EXCLUDED.title, type = EXCLUDED.type, state = EXCLUDED.state, body = EXCLUDED.body, url = EXCLUDED.url,
  author_username = EXCLUDED.author_username, assignee_username = EXCLUDED.assignee_username,
  labels = EXCLUDED.labels, metadata = EXCLUDED.metadata,
  created_at = COALESCE(${sent('created_at')}, i.created_at),
  closed_at = CASE WHEN ${sent('closed_given')} THEN EXCLUDED.closed_at
    WHEN EXCLUDED.state = 'closed' THEN COALESCE(i.closed_at, now()) END,
  updated_at = now()
RETURNING id, tenant_id, external_id, (xmax = 0) AS created
)`;

/** One request of a batch: its parameters become one row of the statement's `input`. */
export interface Kind<I> {
  /** `input`'s columns after `ord` and `key_hash`, with their types. */
  columns: [name: string, type: string][];
  values: (input: I) => unknown[];
  ctes: string;
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

export const ISSUE_KIND: Kind<IssueWebhook> = {
  columns: [
    ['project_key', 'text'], ['external_id', 'text'], ['number', 'int'], ['title', 'text'], ['type', 'text'], ['state', 'text'],
    ['body', 'text'], ['url', 'text'], ['author_username', 'text'], ['assignee_username', 'text'], ['labels', 'jsonb'],
    ['metadata', 'jsonb'], ['created_at', 'timestamptz'], ['closed_at', 'timestamptz'], ['closed_given', 'boolean'],
  ],
  values: (input) => [
    input.projectKey, input.externalId, orNull(input.number), input.title, input.type, input.state, orNull(input.body),
    orNull(input.url), orNull(input.authorUsername), orNull(input.assigneeUsername), json(input.labels ?? []),
    json(input.metadata), orNull(input.createdAt), orNull(input.closedAt), input.closedAt !== undefined,
  ],
  ctes: issuesCtes('manual'),
};

export const DEPLOYMENT_KIND: Kind<DeploymentWebhook> = {
  columns: [
    ['project_key', 'text'], ['external_id', 'text'], ['ref', 'text'], ['sha', 'text'], ['environment', 'text'], ['status', 'text'],
    ['task', 'text'], ['description', 'text'], ['url', 'text'], ['creator_username', 'text'], ['is_production', 'boolean'],
    ['is_rollback', 'boolean'], ['rollback_from_sha', 'text'], ['metadata', 'jsonb'], ['created_at', 'timestamptz'],
  ],
  values: (input) => {
    const isRollback = input.isRollback ?? false;
    return [
      input.projectKey, input.externalId, input.ref, input.sha.toLowerCase(), input.environment, input.status,
      isRollback ? 'rollback' : (input.task ?? 'deploy'), orNull(input.description), orNull(input.url),
      orNull(input.creatorUsername), orNull(input.isProduction), isRollback,
      input.rollbackFromSha == null ? null : input.rollbackFromSha.toLowerCase(), json(input.metadata), orNull(input.createdAt),
    ];
  },
  ctes: DEPLOYMENTS,
};

/**
 * The statement of a batch: `input` from one array parameter per column (`$1` ord, `$2` key
 * hash, then the kind's columns), `gate` the CTEs that define `ok` (and whatever `tail` reads).
 */
export function batchSql(kind: Kind<never>, gate: string, tail: string): string {
  const columns: [string, string][] = [['ord', 'int'], ['key_hash', 'text'], ...kind.columns];
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  return `WITH input AS MATERIALIZED (
  SELECT * FROM unnest(${arrays}) AS x(${columns.map(([name]) => name).join(', ')})
), ${gate}, ${kind.ctes} ${tail}`;
}

/** The array parameters of `batchSql` for these requests (`ord` is the index in `items`). */
export function batchValues<I>(kind: Kind<I>, items: { keyHash: string; input: I }[]): unknown[][] {
  const arrays: unknown[][] = Array.from({ length: kind.columns.length + 2 }, () => []);
  items.forEach((item, ord) => {
    arrays[0]!.push(ord);
    arrays[1]!.push(item.keyHash);
    kind.values(item.input).forEach((value, i) => arrays[i + 2]!.push(value));
  });
  return arrays;
}

// Without the gate: the tenant is the principal's, given as $N.
const plainSql = (kind: Kind<never>) => batchSql(kind, `ok AS (SELECT input.*, $${kind.columns.length + 3}::uuid AS tenant_id FROM input)`, 'SELECT rec.id, rec.created FROM rec');
const PLAIN_ISSUE = plainSql(ISSUE_KIND as Kind<never>);
const PLAIN_DEPLOYMENT = plainSql(DEPLOYMENT_KIND as Kind<never>);

const ATTEMPTS = 3;

const TRACKER_ISSUES = Object.fromEntries(
  (['jira', 'linear'] as const).map((provider) => [provider, plainSql({ ...ISSUE_KIND, ctes: issuesCtes(provider) } as Kind<never>).replace('SELECT rec.id, rec.created FROM rec', 'SELECT rec.id, rec.external_id, rec.created FROM rec')]),
) as Record<'jira' | 'linear', string>;

/**
 * Creates or replaces a page of issues synced from an issue tracker, with the webhook API's rules
 * (same statement, same project by key, so every measure counts them alike) under the tracker's
 * provider, so its externalIds never meet a webhook's. One externalId at most once per call.
 */
export async function upsertTrackerIssues(db: Queryable, tenantId: string, provider: 'jira' | 'linear', inputs: IssueWebhook[]): Promise<UpsertResult[]> {
  if (inputs.length === 0) return [];
  const values = [...batchValues(ISSUE_KIND, inputs.map((input) => ({ keyHash: '', input }))), tenantId];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query<{ id: string; external_id: string; created: boolean }>({ name: `tracker-upsert-issues-${provider}`, text: TRACKER_ISSUES[provider], values });
    if (rows.length === inputs.length) return rows.map((r) => ({ action: r.created ? 'created' : 'updated', id: r.id, externalId: r.external_id }));
  }
  throw new AppError('internal', 'project could not be found or created');
}

async function runUpsert<I extends { externalId: string }>(db: Queryable, name: string, text: string, kind: Kind<I>, tenantId: string, input: I): Promise<UpsertResult> {
  const values = [...batchValues(kind, [{ keyHash: '', input }]), tenantId];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query<{ id: string; created: boolean }>({ name, text, values });
    const row = rows[0];
    if (row) return { action: row.created ? 'created' : 'updated', id: row.id, externalId: input.externalId };
  }
  throw new AppError('internal', 'project could not be found or created');
}

/**
 * Creates or replaces the issue `externalId` of the principal's tenant. Replacing means every
 * field takes the posted value (an omitted optional field is cleared), except `createdAt` and
 * `number`, which keep their stored values when omitted, and `closedAt`, which defaults to the
 * stored close time, or now, while the state is closed.
 */
export async function upsertIssue(db: Queryable, principal: TenantPrincipal, input: IssueWebhook): Promise<UpsertResult> {
  return runUpsert(db, 'webhook-upsert-issue', PLAIN_ISSUE, ISSUE_KIND, principal.tenantId, input);
}

/**
 * Creates or replaces the deployment `externalId` of the principal's tenant. `task` is
 * `rollback` when `isRollback` is true, else the posted task or `deploy`; `isProduction` is
 * stored as given (NULL when omitted, see `isProductionDeployment`); hashes are stored lowercase.
 */
export async function upsertDeployment(db: Queryable, principal: TenantPrincipal, input: DeploymentWebhook): Promise<UpsertResult> {
  return runUpsert(db, 'webhook-upsert-deployment', PLAIN_DEPLOYMENT, DEPLOYMENT_KIND, principal.tenantId, input);
}

/**
 * Production detection of METRICS.md: `isProduction` when the sender gave it, otherwise
 * `environment = 'production'`. `PRODUCTION_SQL` is the same rule for queries over `deployments`.
 */
export function isProductionDeployment(d: { isProduction: boolean | null; environment: string }): boolean {
  return d.isProduction ?? d.environment === 'production';
}
export const PRODUCTION_SQL = `COALESCE(is_production, environment = 'production')`;
