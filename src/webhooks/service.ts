/**
 * Issues and deployments pushed by external tools (webhook API v1; any future CLI or job calls
 * the same functions). Each call is ONE SQL statement, so it is atomic and safe under concurrency
 * (the webhook routes run the same statement for a batch of requests, see src/webhooks/batch.ts):
 * - the project is found by key, case-insensitively, whichever source made it, or created
 *   (`provider` and `sourceType` manual, the sync flags true);
 * - for an issue without `number`, the next number of the project is taken from
 *   `projects.issue_seq` under the project's row lock (an explicit number pushes the counter
 *   forward so a generated one never collides with it);
 * - the record is upserted on (tenant_id, provider, external_id); `xmax = 0` tells an insert
 *   from an update, so exactly one of many simultaneous first posts reports `created`.
 * A first post racing another first post of the same new project can find neither the project
 * (created after our snapshot) nor create it (the other one did): the statement then returns no
 * row and is run again, and the second run sees the committed project.
 * The statement's steps are in src/webhooks/upsertStatement.ts.
 */
import type { Pool } from 'pg';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import type { DeploymentWebhook, IssueWebhook } from './schemas.js';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../aiSessions/activityLinks.js';
import { deploymentUpsert, inputRows, issueUpsert, principalTenant, statement, type Column, type IssueProvider } from './upsertStatement.js';

export { ISSUE_PROVIDERS, type IssueProvider } from './upsertStatement.js';

export const WEBHOOK_PROVIDER = 'manual';

export interface UpsertResult {
  action: 'created' | 'updated';
  id: string;
  externalId: string;
}

type Queryable = Pick<Pool, 'query'>;

/** One request of a batch: its parameters become one row of the statement's `input`. */
export interface Kind<I> {
  /** `input`'s columns after `ord` and `key_hash`, with their types. */
  columns: Column[];
  values: (input: I) => unknown[];
  /** The upsert's steps after `ok` (src/webhooks/upsertStatement.ts); they end with `rec`. */
  steps: string[][];
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
  steps: issueUpsert('manual'),
};

/** A deployment as the statement stores it; the code host's environments are free names, not the webhook API's enum. */
export type DeploymentRecord = Omit<DeploymentWebhook, 'environment'> & { environment: string };

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
  steps: deploymentUpsert(),
};

/**
 * The statement of a batch: `input` from one array parameter per column (`$1` ord, `$2` key
 * hash, then the kind's columns), `gate` the CTEs that define `ok` (and whatever `tail` reads).
 */
export function batchSql(kind: Kind<never>, gate: string[], tail: string): string {
  return statement([inputRows(kind.columns), gate, ...kind.steps], tail);
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
const plainSql = (kind: Kind<never>, returning = 'rec.id, rec.created') => batchSql(kind, principalTenant(kind.columns), `SELECT ${returning} FROM rec`);
const PLAIN_ISSUE = plainSql(ISSUE_KIND as Kind<never>);
const PLAIN_DEPLOYMENT = plainSql(DEPLOYMENT_KIND as Kind<never>);

const ATTEMPTS = 3;

const CODEHOST_DEPLOYMENT = plainSql({ ...DEPLOYMENT_KIND, steps: deploymentUpsert('codehost') } as Kind<never>);

/** The statement's text and positional parameters as one drizzle query, so it runs inside the caller's transaction. */
function inTransaction(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`));
  return sql.join(chunks);
}

/**
 * Creates or replaces a deployment read from the code host's own records (src/codehost/deployments.ts),
 * with the webhook API's statement under provider `codehost`, so the facts its triggers keep are
 * the same; inside the transaction that records the delivery. The project exists already.
 */
export async function upsertCodehostDeployment(tx: Executor, tenantId: string, input: DeploymentRecord): Promise<UpsertResult> {
  const values = [...batchValues(DEPLOYMENT_KIND as unknown as Kind<DeploymentRecord>, [{ keyHash: '', input }]), tenantId];
  const result = await tx.execute<{ id: string; created: boolean }>(inTransaction(CODEHOST_DEPLOYMENT, values));
  const row = result.rows[0];
  if (!row) throw new AppError('internal', 'project could not be found or created');
  return { action: row.created ? 'created' : 'updated', id: row.id, externalId: input.externalId };
}

const TRACKER_ISSUES = Object.fromEntries(
  (['jira', 'linear'] as const).map((provider) => [provider, plainSql({ ...ISSUE_KIND, steps: issueUpsert(provider) } as Kind<never>, 'rec.id, rec.external_id, rec.created')]),
) as Record<Exclude<IssueProvider, 'manual'>, string>;

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
