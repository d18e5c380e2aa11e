/**
 * Each project's deployment source, one at a time (issue 36; docs/codehost-deployments.md): the
 * webhook API, the code host's deployments, the runs of a named workflow, or releases. The code
 * host's deliveries from another source are acknowledged and not stored (src/codehost/deployments.ts);
 * rows already stored stay, and each period has one source: from the current source's earliest
 * record on, the other sources' rows are replaced, not counted (migration 0064, decided in the
 * stored facts; a change of source is noted by a trigger, so the facts follow it).
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { codehostBackfills, deploymentSourceDefaults, deployments, projects, type DeploymentSource } from '../db/schema/index.js';
import { AppError, notFound } from '../errors.js';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';

export interface DeploymentSourceRow {
  projectId: string;
  projectKey: string;
  source: DeploymentSource | null;
  workflow: string | null;
  branch: string | null;
  productionEnvironment: string | null;
  webhookDeployments: number;
  codehostDeployments: number;
  /** The project's latest 90-day backfill from the code host (docs/codehost-deployments.md), or null. */
  backfill: BackfillRow | null;
}

/** A `codehost_backfills` row as the list reads it (timestamps as JSON text). */
export interface BackfillRow {
  /** A code-host source (the backfill's `source` column). */
  source: DeploymentSource;
  applied: number;
  /** Records of the window, once listed. */
  total: number | null;
  since: string;
  waitingUntil: string | null;
  finishedAt: string | null;
  lastError: string | null;
  leased: boolean;
}

export interface DeploymentSourceSettings {
  source: DeploymentSource | null;
  workflow?: string | null;
  branch?: string | null;
  productionEnvironment?: string | null;
}

const columns = {
  projectId: projects.id,
  projectKey: projects.projectKey,
  source: projects.deploymentSource,
  workflow: projects.deploymentWorkflow,
  branch: projects.deploymentBranch,
  productionEnvironment: projects.productionEnvironment,
  webhookDeployments: sql<number>`(SELECT count(*)::int FROM ${deployments} d WHERE d.project_id = "projects"."id" AND d.provider = 'manual')`,
  codehostDeployments: sql<number>`(SELECT count(*)::int FROM ${deployments} d WHERE d.project_id = "projects"."id" AND d.provider = 'codehost')`,
  backfill: sql<BackfillRow | null>`(SELECT json_build_object('source', b.source, 'applied', b.applied,
      'total', CASE WHEN b.cursor->>'phase' = 'apply' THEN jsonb_array_length(b.cursor->'items') END, 'since', b.since,
      'waitingUntil', b.waiting_until, 'finishedAt', b.finished_at, 'lastError', b.last_error, 'leased', COALESCE(b.lease_until > now(), false))
    FROM ${codehostBackfills} b WHERE b.project_id = "projects"."id" AND b.source <> 'pull_requests' ORDER BY b.updated_at DESC LIMIT 1)`,
};

export async function listDeploymentSources(db: Db, tenantId: string, paging: { page: number; perPage: number }): Promise<{ rows: DeploymentSourceRow[]; total: number }> {
  const rows = await db.select(columns).from(projects).where(eq(projects.tenantId, tenantId))
    .orderBy(asc(sql`lower(${projects.projectKey})`), asc(projects.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage);
  const [total] = await db.select({ n: count() }).from(projects).where(eq(projects.tenantId, tenantId));
  return { rows: rows as DeploymentSourceRow[], total: total?.n ?? 0 };
}

export async function getDeploymentSource(db: Db, tenantId: string, projectId: string): Promise<DeploymentSourceRow> {
  const [row] = await db.select(columns).from(projects).where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)));
  if (!row) throw notFound('Project');
  return row as DeploymentSourceRow;
}

/**
 * Replaces the project's settings (an omitted field is cleared). Workflow runs need the workflow's
 * file name; the branch then defaults to the repository's default branch. `source: null` hands
 * the project back to the first source that delivers a deployment.
 */
export async function setDeploymentSource(db: Db, principal: TenantPrincipal, projectId: string, settings: DeploymentSourceSettings): Promise<DeploymentSourceRow> {
  // Owners only (the route says so too): what counts as a deployment changes every DORA number.
  authorize(principal, 'deploymentSource.manage');
  const { tenantId } = principal;
  if (settings.source === 'workflow_runs' && !settings.workflow && !(await getOrganisationPattern(db, tenantId))) {
    throw new AppError('validation_failed', 'Validation failed', [{ path: 'workflow', message: 'Required when source is workflow_runs and the organisation has no workflow pattern' }]);
  }
  const updated = await db.update(projects)
    .set({
      deploymentSource: settings.source,
      deploymentWorkflow: settings.workflow ?? null,
      deploymentBranch: settings.branch ?? null,
      productionEnvironment: settings.productionEnvironment ?? null,
    })
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)))
    .returning({ id: projects.id });
  if (updated.length === 0) throw notFound('Project');
  return getDeploymentSource(db, tenantId, projectId);
}

export interface OrganisationPattern {
  workflow: string;
  branch: string | null;
}

/** The organisation-wide workflow pattern, or null when none is set. */
export async function getOrganisationPattern(db: Db, tenantId: string): Promise<OrganisationPattern | null> {
  const [row] = await db.select({ workflow: deploymentSourceDefaults.workflow, branch: deploymentSourceDefaults.branch })
    .from(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
  return row ?? null;
}

/**
 * Sets (or, with null, removes) the organisation-wide workflow pattern. Projects with their own
 * workflow keep it; those without a source are claimed by the first matching completed run.
 */
export async function setOrganisationPattern(db: Db, principal: TenantPrincipal, pattern: OrganisationPattern | null): Promise<OrganisationPattern | null> {
  authorize(principal, 'deploymentSource.manage');
  const { tenantId } = principal;
  if (pattern === null) {
    await db.delete(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
    return null;
  }
  await db.insert(deploymentSourceDefaults).values({ tenantId, ...pattern })
    .onConflictDoUpdate({ target: deploymentSourceDefaults.tenantId, set: { ...pattern, updatedAt: sql`now()` } });
  return getOrganisationPattern(db, tenantId);
}

/**
 * Whether any project of the tenant may have replaced deployments (one source per period): a
 * project with a source whose deployments include rows of another source (or of none, a code-host
 * row without metadata.source). A deployment is replaced only then (deployment_replaced_by), so
 * false means none is, and the facts lists skip counting them (src/facts/service.ts). Three index
 * probes per project with a source (deployments_project_source_created_idx: below, above, null),
 * whatever the number of its deployments.
 */
export async function mayHaveReplacedDeployments(pool: Pick<pg.Pool, 'query'>, tenantId: string): Promise<boolean> {
  const { rows } = await pool.query<{ found: boolean }>(
    // LATERAL keeps each probe correlated: as OR-ed EXISTS the planner hashes the null probe over
    // every project's rows.
    `select exists (
       select 1 from projects p
       cross join lateral (
         (select 1 from deployments d where d.project_id = p.id and deployment_source_of(d.provider, d.metadata) < p.deployment_source limit 1)
         union all (select 1 from deployments d where d.project_id = p.id and deployment_source_of(d.provider, d.metadata) > p.deployment_source limit 1)
         union all (select 1 from deployments d where d.project_id = p.id and deployment_source_of(d.provider, d.metadata) is null limit 1)
       ) other
       where p.tenant_id = $1 and p.deployment_source is not null
     ) as found`,
    [tenantId],
  );
  return rows[0]!.found;
}
