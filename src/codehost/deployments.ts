/**
 * The code host's own deployment records → deployments of the repository's project, for DORA
 * numbers without a pipeline step (issue 36; docs/codehost-deployments.md, METRICS.md
 * "Deployments from the code host"): GitHub deployments and their statuses, the completed runs of
 * the workflow an owner named, and published releases. One source per project at a time
 * (`projects.deployment_source`): a delivery from another source is acknowledged and not stored, so
 * switching never counts one deployment twice. Every record is written with the webhook API's
 * statement (provider `codehost`), so the facts its triggers keep are the same.
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deploymentSourceDefaults, deployments, projects, type DeploymentSource } from '../db/schema/index.js';
import type { Executor } from '../aiSessions/activityLinks.js';
import { upsertCodehostDeployment, type DeploymentRecord } from '../webhooks/service.js';
import type { DEPLOYMENT_STATUSES } from '../webhooks/schemas.js';
import { globMatches } from '../shared/text.js';

type Status = (typeof DEPLOYMENT_STATUSES)[number];
import { ensureProject, Repository, Time, Timestamp, User } from './events.js';

export const CODEHOST_DEPLOYMENT_PROVIDER = 'codehost';

/** What a handler says when it stores nothing: the delivery is acknowledged with this reason. */
export interface NotStored {
  stored: false;
  reason: string;
}

const Deployment = z.object({
  id: z.number().int(),
  sha: z.string(),
  ref: z.string(),
  task: z.string().nullish(),
  environment: z.string().min(1),
  description: z.string().nullish(),
  creator: User,
  created_at: Timestamp,
  production_environment: z.boolean().nullish(),
  url: z.string().nullish(),
});

export const DeploymentEvent = z.object({ action: z.string().optional(), repository: Repository, deployment: Deployment });

export const DeploymentStatusEvent = DeploymentEvent.extend({
  deployment_status: z.object({
    id: z.number().int(),
    state: z.string(),
    url: z.string().nullish(),
    target_url: z.string().nullish(),
    log_url: z.string().nullish(),
    environment_url: z.string().nullish(),
    created_at: Timestamp,
    updated_at: Time,
  }),
});

export const WorkflowRunEvent = z.object({
  action: z.string(),
  repository: Repository.extend({ default_branch: z.string().nullish() }),
  workflow: z.object({ path: z.string().nullish() }).nullish(),
  workflow_run: z.object({
    id: z.number().int(),
    name: z.string().nullish(),
    path: z.string().nullish(),
    head_branch: z.string().nullish(),
    head_sha: z.string(),
    status: z.string().nullish(),
    conclusion: z.string().nullish(),
    run_attempt: z.number().int().nullish(),
    run_started_at: Time,
    created_at: Timestamp,
    updated_at: Time,
    html_url: z.string().nullish(),
    actor: User,
  }),
});

export const ReleaseEvent = z.object({
  action: z.string(),
  repository: Repository,
  release: z.object({
    id: z.number().int(),
    tag_name: z.string().min(1),
    target_commitish: z.string().nullish(),
    name: z.string().nullish(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    created_at: Time,
    published_at: Time,
    updated_at: Time,
    html_url: z.string().nullish(),
    author: User,
  }),
});

const SOURCE_NAMES: Record<DeploymentSource, string> = {
  webhook: 'the webhook API',
  deployments: 'code-host deployments',
  workflow_runs: 'workflow runs',
  releases: 'releases',
};

interface ProjectSettings {
  id: string;
  projectKey: string;
  deploymentSource: DeploymentSource | null;
  deploymentWorkflow: string | null;
  deploymentBranch: string | null;
  productionEnvironment: string | null;
}

/** The repository's project with its deployment settings, locked: two deliveries never both claim it. */
async function projectSettings(tx: Executor, tenantId: string, repository: string): Promise<ProjectSettings> {
  const { id } = await ensureProject(tx, tenantId, repository);
  const [row] = await tx
    .select({
      id: projects.id, projectKey: projects.projectKey, deploymentSource: projects.deploymentSource, deploymentWorkflow: projects.deploymentWorkflow,
      deploymentBranch: projects.deploymentBranch, productionEnvironment: projects.productionEnvironment,
    })
    .from(projects)
    .where(eq(projects.id, id))
    .for('update');
  return row as ProjectSettings;
}

const notStored = (reason: string): NotStored => ({ stored: false, reason });

/**
 * Whether this source's records are the project's deployments. A project with no source yet is
 * claimed by the first that delivers one: webhook-API deployments already stored claim it for the
 * webhook API; otherwise code-host deployments claim it. A workflow run claims it only when it
 * matches the organisation-wide workflow pattern (`claims`); releases never do: an owner names them
 * (a workflow run or a release is not in itself a deployment).
 */
async function usesSource(tx: Executor, project: ProjectSettings, source: DeploymentSource, claims = source === 'deployments'): Promise<NotStored | undefined> {
  let current = project.deploymentSource;
  if (current === null && claims && source !== 'deployments') {
    current = source;
    await tx.update(projects).set({ deploymentSource: current }).where(eq(projects.id, project.id));
  }
  if (current === null && source === 'deployments') {
    const [manual] = await tx.select({ id: deployments.id }).from(deployments)
      .where(and(eq(deployments.projectId, project.id), eq(deployments.provider, 'manual'))).limit(1);
    current = manual ? 'webhook' : 'deployments';
    await tx.update(projects).set({ deploymentSource: current }).where(eq(projects.id, project.id));
  }
  if (current === source) return undefined;
  if (current === null) {
    return notStored(source === 'workflow_runs'
      ? `no workflow is named as the deployment of ${project.projectKey}`
      : `${project.projectKey} does not use releases as its deployment source`);
  }
  return notStored(`the deployment source of ${project.projectKey} is ${SOURCE_NAMES[current]}, not ${SOURCE_NAMES[source]}`);
}

const lower = (value: string) => value.toLowerCase();
const isSha = (value: string | null | undefined): value is string => value != null && /^[0-9a-fA-F]{40}$/.test(value);

/**
 * METRICS.md "Rollback": a production deployment whose sha equals that of an earlier successful
 * production deployment of the same project, made after a newer one, rolls back from the sha
 * deployed just before it. Decided when the deployment is written, from what is stored then.
 */
async function rollbackOf(tx: Executor, projectId: string, record: { externalId: string; sha: string; createdAt: string }): Promise<{ isRollback: boolean; rollbackFromSha: string | null }> {
  const none = { isRollback: false, rollbackFromSha: null };
  if (!isSha(record.sha)) return none;
  const before = and(
    eq(deployments.projectId, projectId),
    eq(deployments.status, 'success'),
    sql`COALESCE(${deployments.isProduction}, ${deployments.environment} = 'production')`,
    lt(deployments.createdAt, new Date(record.createdAt)),
    sql`NOT (${deployments.provider} = ${CODEHOST_DEPLOYMENT_PROVIDER} AND ${deployments.externalId} = ${record.externalId})`,
  );
  const [previous] = await tx.select({ sha: deployments.sha }).from(deployments).where(before).orderBy(desc(deployments.createdAt), desc(deployments.id)).limit(1);
  if (!previous || lower(previous.sha) === lower(record.sha)) return none;
  const [earlier] = await tx.select({ id: deployments.id }).from(deployments).where(and(before, sql`lower(${deployments.sha}) = ${lower(record.sha)}`)).limit(1);
  return earlier ? { isRollback: true, rollbackFromSha: lower(previous.sha) } : none;
}

interface Stored {
  status: string;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

async function storedDeployment(tx: Executor, tenantId: string, externalId: string): Promise<Stored | undefined> {
  const [row] = await tx.select({ status: deployments.status, metadata: deployments.metadata, createdAt: deployments.createdAt }).from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.provider, CODEHOST_DEPLOYMENT_PROVIDER), eq(deployments.externalId, externalId)));
  return row;
}

/** Writes the record, a production one with its rollback decided first. */
async function write(tx: Executor, tenantId: string, project: ProjectSettings, record: Omit<DeploymentRecord, 'projectKey' | 'isRollback' | 'rollbackFromSha'> & { createdAt: string }): Promise<void> {
  const rollback = record.isProduction ? await rollbackOf(tx, project.id, record) : { isRollback: false, rollbackFromSha: null };
  await upsertCodehostDeployment(tx, tenantId, { ...record, projectKey: project.projectKey, ...rollback });
}

/** Milliseconds of a code-host time (already validated), or 0 when there is none. */
const timeOf = (value: unknown): number => (typeof value === 'string' ? Date.parse(value) || 0 : 0);

/** Whether a version (compared element by element, e.g. `[attempt, updatedAt]`) is older than the stored one. */
function isOlder(version: number[], stored: number[]): boolean {
  for (const [i, part] of version.entries()) {
    const other = stored[i] ?? 0;
    if (part !== other) return part < other;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// GitHub deployments

type DeploymentPayload = z.infer<typeof Deployment>;

const FINISHED_OR_PROGRESS = new Set<string>(['success', 'failure', 'error', 'pending', 'queued', 'in_progress']);

function deploymentRecord(project: ProjectSettings, d: DeploymentPayload, status: Status, url: string | null, metadata: Record<string, unknown>) {
  const productionName = project.productionEnvironment ?? 'production';
  return {
    externalId: `gh-deployment-${d.id}`,
    ref: d.ref,
    sha: d.sha,
    environment: d.environment,
    status,
    task: d.task ?? 'deploy',
    description: d.description ?? undefined,
    url: url ?? undefined,
    creatorUsername: d.creator?.login,
    isProduction: d.production_environment === true || lower(d.environment) === lower(productionName),
    createdAt: d.created_at,
    metadata: { source: 'deployments', deploymentId: d.id, ...metadata },
  };
}

/** A deployment was created: stored as `pending` unless a status of it arrived first (that one stays). */
export async function applyDeployment(tx: Executor, tenantId: string, event: z.infer<typeof DeploymentEvent>): Promise<NotStored | void> {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, 'deployments');
  if (refused) return refused;
  const externalId = `gh-deployment-${event.deployment.id}`;
  if (await storedDeployment(tx, tenantId, externalId)) return;
  await write(tx, tenantId, project, deploymentRecord(project, event.deployment, 'pending', null, {}));
}

/**
 * A status of a deployment: the deployment takes the latest status's state (by status id, so a
 * late delivery of an older status changes nothing). `inactive` (the code host marks the previous
 * deployment of an environment so when a newer one succeeds) keeps the earlier state.
 */
export async function applyDeploymentStatus(tx: Executor, tenantId: string, event: z.infer<typeof DeploymentStatusEvent>): Promise<NotStored | void> {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, 'deployments');
  if (refused) return refused;
  const status = event.deployment_status;
  const externalId = `gh-deployment-${event.deployment.id}`;
  const stored = await storedDeployment(tx, tenantId, externalId);
  const storedStatusId = Number(stored?.metadata?.statusId ?? 0);
  if (stored && storedStatusId > status.id) return;
  // `inactive` and states this service does not know keep what is stored.
  if (stored && !FINISHED_OR_PROGRESS.has(status.state)) return;
  const state = (FINISHED_OR_PROGRESS.has(status.state) ? status.state : 'inactive') as Status;
  const url = status.target_url || status.log_url || status.environment_url || status.url || null;
  await write(tx, tenantId, project, deploymentRecord(project, event.deployment, state, url, { statusId: status.id, statusState: status.state }));
}

// ---------------------------------------------------------------------------------------------
// Workflow runs

const RUN_STATUS: Record<string, Status> = {
  success: 'success',
  failure: 'failure',
  timed_out: 'failure',
  startup_failure: 'failure',
};

const fileName = (path: string) => path.split('/').pop() ?? path;

/**
 * A workflow's file name against a name or pattern (`deploy*.yml`: `*` is any run of characters),
 * without case, in linear time: an owner's pattern is never made a regular expression (a pattern
 * such as `*a*a*a*a*a*a*a*a*b.yml` froze the instance on one delivery).
 */
export function workflowMatches(pattern: string, path: string): boolean {
  return globMatches(fileName(pattern), fileName(path));
}

/**
 * A completed run of the workflow an owner named, on the named branch (default: the repository's
 * default branch), is a production deployment; a re-run (same run id, next attempt) replaces it.
 * Conclusions other than success and failure (`cancelled`, `skipped`, `neutral` …) are stored as
 * `inactive`: not finished.
 */
export async function applyWorkflowRun(tx: Executor, tenantId: string, event: z.infer<typeof WorkflowRunEvent>): Promise<NotStored | void> {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const run = event.workflow_run;
  const path = run.path ?? event.workflow?.path ?? '';
  // The project's own workflow, else the organisation's pattern (its branch with it).
  const [pattern] = project.deploymentWorkflow ? [] : await tx.select().from(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
  const workflow = project.deploymentWorkflow ?? pattern?.workflow ?? null;
  const matches = workflow !== null && workflowMatches(workflow, path);
  const branch = (project.deploymentWorkflow ? project.deploymentBranch : pattern?.branch) ?? event.repository.default_branch ?? null;
  const onBranch = branch === null || run.head_branch === branch;
  // A project of another source hears that first; one open to workflow runs, why this run is not its deployment.
  if (workflow !== null && (project.deploymentSource === null || project.deploymentSource === 'workflow_runs')) {
    if (!matches) return notStored(`workflow ${fileName(path) || run.name || run.id} is not the deployment workflow of ${project.projectKey}`);
    if (!onBranch) return notStored(`a run on branch ${run.head_branch ?? '(none)'} is not a deployment of ${project.projectKey} (branch ${branch})`);
  }
  const refused = await usesSource(tx, project, 'workflow_runs', matches && onBranch && !project.deploymentWorkflow);
  if (refused) return refused;
  const externalId = `gh-run-${run.id}`;
  const attempt = run.run_attempt ?? 1;
  const stored = await storedDeployment(tx, tenantId, externalId);
  // A replayed or late delivery of an earlier attempt, or of the same attempt's earlier state, changes nothing.
  if (stored && isOlder([attempt, timeOf(run.updated_at)], [Number(stored.metadata?.runAttempt ?? 0), timeOf(stored.metadata?.runUpdatedAt)])) return;
  await write(tx, tenantId, project, {
    externalId,
    ref: run.head_branch ?? branch ?? '',
    sha: run.head_sha,
    environment: 'production',
    status: RUN_STATUS[run.conclusion ?? ''] ?? 'inactive',
    task: 'deploy',
    url: run.html_url ?? undefined,
    creatorUsername: run.actor?.login,
    isProduction: true,
    createdAt: run.run_started_at ?? run.created_at,
    metadata: { source: 'workflow_runs', runId: run.id, runAttempt: attempt, runUpdatedAt: run.updated_at ?? null, conclusion: run.conclusion ?? null, workflow: path },
  });
}

// ---------------------------------------------------------------------------------------------
// Releases

/**
 * A published, non-draft, non-prerelease release is a successful production deployment at
 * `published_at`; a release deleted or unpublished afterwards becomes `inactive` (not finished).
 * The payload names the release's target (a branch or a commit), not the tag's commit: the sha is
 * stored only when the target is a full commit hash, else left empty.
 *
 * Replays and late deliveries never roll a release back (docs/codehost-deployments-backfill.md "Replays and late deliveries"):
 * each row keeps the time of the state it holds (`stateAt`, the payload's latest own time) and
 * whether it is withdrawn; an event whose state is older, or as old and not a withdrawal over a
 * publication, changes nothing. `deleted` is final: the code host never reuses a release id, so
 * nothing after it changes the row, and a release deleted before its publication was stored is
 * kept as a withdrawn row (a tombstone) so that the publication arriving late cannot make it a
 * deployment.
 */
export async function applyRelease(tx: Executor, tenantId: string, event: z.infer<typeof ReleaseEvent>): Promise<NotStored | void> {
  const release = event.release;
  const withdrawn = event.action === 'deleted' || event.action === 'unpublished';
  if (!withdrawn && (release.draft || release.prerelease)) return notStored(`release ${release.tag_name} is a ${release.draft ? 'draft' : 'prerelease'}`);
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, 'releases');
  if (refused) return refused;
  const externalId = `gh-release-${release.id}`;
  const stateAt = Math.max(timeOf(release.updated_at), timeOf(release.published_at), timeOf(release.created_at));
  const stored = await storedDeployment(tx, tenantId, externalId);
  if (stored) {
    if (stored.metadata?.withdrawn === 'deleted') return;
    const storedAt = timeOf(stored.metadata?.stateAt) || stored.createdAt.getTime();
    if (event.action !== 'deleted' && isOlder([stateAt, withdrawn ? 1 : 0], [storedAt, stored.metadata?.withdrawn ? 1 : 0])) return;
    if (!withdrawn && stateAt === storedAt && !stored.metadata?.withdrawn) return;
  } else if (withdrawn && (release.prerelease || !release.published_at)) {
    return notStored(`release ${release.tag_name} was never stored`);
  }
  await write(tx, tenantId, project, {
    externalId,
    ref: release.tag_name,
    sha: isSha(release.target_commitish) ? release.target_commitish : '',
    environment: 'production',
    status: withdrawn ? ('inactive' as const) : ('success' as const),
    task: 'release',
    description: release.name ?? undefined,
    url: release.html_url ?? undefined,
    creatorUsername: release.author?.login,
    isProduction: true,
    createdAt: release.published_at ?? release.created_at ?? new Date().toISOString(),
    metadata: {
      source: 'releases', releaseId: release.id, tag: release.tag_name, stateAt: new Date(Math.max(stateAt, timeOf(stored?.metadata?.stateAt))).toISOString(),
      ...(withdrawn ? { withdrawn: event.action } : {}),
    },
  });
}
