/**
 * `codehost.backfill`: the last 90 days of a project's deployments, then of its pull requests
 * (with their reviews and commits), read from the code host's REST API as the application's
 * installation on the repository (docs/codehost-deployments-backfill.md "Backfill"). Each record
 * becomes the events the code host would have delivered and goes through the same functions as
 * the webhook (deployments.ts, events.ts, reviews.ts), oldest first, so every rule (the project's
 * source, production, latest status, rollbacks; ready for review, first review) holds for it and
 * a record met twice is one row.
 *
 * The walk first lists the records of the window (newest first, as the code host pages them),
 * then applies them oldest first; the cursor is saved after every page and every record, so a
 * retry, a restart or the continuation queued after a rate limit resumes where it stopped.
 *
 * A running walk beats a heartbeat (its lease, renewed by every save and every quarter of
 * BACKFILL_STALE): a walk whose worker died has a lease that lapses within BACKFILL_STALE, and the
 * next settings request or the minute's `codehost.backfills-resume` queues its continuation
 * (resumeStalledBackfills), not the job's expiry a quarter of an hour later.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { codehostBackfills, codehostInstallations, deploymentSourceDefaults, projects, type DeploymentSource } from '../db/schema/index.js';
import type { Executor } from '../aiSessions/activityLinks.js';
import { defineJob, type JobContext } from '../jobs/define.js';
import { inTransaction } from '../db/transaction.js';
import { scheduled } from '../jobs/maintenance.js';
import { Uuid } from '../shared/schemas.js';
import { ensureProject } from './events.js';
import { oldestFirst, parsed, PER_PAGE, walkerOf, type CodehostSource, type Repository, type WalkSource } from './backfillSources.js';
import { CodehostApiError, CodehostRateLimited, CodehostRestClient, repoPath } from './restClient.js';

export const BACKFILL_DAYS = 90;
/** The job's expiry: a run hands over long before (RUN_BUDGET); a dead worker is found by its heartbeat. */
const EXPIRE_SECONDS = 15 * 60;
/**
 * A walk whose heartbeat (its lease) is older than this has lost its worker and is resumed by the
 * next settings request or the minute's sweep (docs/codehost-deployments.md "Backfill"). Tests lower it.
 */
export const BACKFILL_STALE = { ms: 30_000 };
const staleSeconds = () => BACKFILL_STALE.ms / 1000;
/**
 * How long one run walks before it hands over to a continuation (queued at once): well inside the
 * job's expiry, so a long walk never runs into it and never uses up the retries. Tests lower it.
 */
export const RUN_BUDGET = { ms: 10 * 60_000 };
/** The longest a continuation waits for a rate limit's reset (the code host's hourly window). */
const MAX_WAIT_MS = 3600_000;

/** When the continuation after a rate limit starts: a second after the reset, an hour at most. */
const continueAt = (error: CodehostRateLimited): Date => new Date(Math.min(error.resetAt.getTime() + 1000, Date.now() + MAX_WAIT_MS));

export const CodehostBackfillPayload = z.object({
  tenantId: Uuid,
  projectId: Uuid,
  /** Known when the installation's own event or link asked for the backfill; else asked of the code host. */
  installationId: z.number().int().positive().optional(),
  /** A continuation (after a rate limit): does nothing once the walk has finished. */
  resume: z.boolean().default(false),
});
export type CodehostBackfillPayload = z.infer<typeof CodehostBackfillPayload>;

type Cursor =
  | { phase: 'list'; repository: Repository; next: string; items: unknown[] }
  | { phase: 'apply'; repository: Repository; items: unknown[]; index: number };

type Row = typeof codehostBackfills.$inferSelect;

/** Another run took the walk over (this one was taken for dead): it stops without writing. */
class LeaseLost extends Error {}

/** The walk's row, new or restarted unless it is unfinished (then it resumes); null when a continuation finds it finished. */
async function openWalk(ctx: JobContext, p: CodehostBackfillPayload, source: WalkSource): Promise<Row | null> {
  const { db } = ctx.app.database;
  const since = new Date(Date.now() - BACKFILL_DAYS * 24 * 3600_000);
  await db.insert(codehostBackfills).values({ tenantId: p.tenantId, projectId: p.projectId, source, since, startedByJobId: ctx.job.id }).onConflictDoNothing();
  const [row] = await db.select().from(codehostBackfills).where(and(eq(codehostBackfills.projectId, p.projectId), eq(codehostBackfills.source, source)));
  if (!row) return null;
  if (row.finishedAt && p.resume) return null;
  // The retry of a job taken for dead, after a continuation finished its walk: its request is served.
  if (row.finishedAt && row.startedByJobId === ctx.job.id) return null;
  // Pull requests do not depend on the deployment source: a settings change does not read them
  // again, only a repository granted (again) does (its request names the installation).
  if (row.finishedAt && source === 'pull_requests' && p.installationId === undefined) return null;
  if (row.finishedAt) {
    const [fresh] = await db.update(codehostBackfills)
      .set({ since, cursor: null, applied: 0, finishedAt: null, lastError: null, waitingUntil: null, startedByJobId: ctx.job.id, updatedAt: sql`now()` })
      .where(and(eq(codehostBackfills.projectId, p.projectId), eq(codehostBackfills.source, source))).returning();
    return fresh ?? null;
  }
  return row;
}

/** Holds the walk for this job; false while another job's lease runs. */
async function takeLease(ctx: JobContext, row: Row): Promise<boolean> {
  const taken = await ctx.app.database.db.update(codehostBackfills)
    .set({ leaseJobId: ctx.job.id, leaseUntil: sql`now() + make_interval(secs => ${staleSeconds()})`, waitingUntil: null, updatedAt: sql`now()` })
    .where(and(eq(codehostBackfills.projectId, row.projectId), eq(codehostBackfills.source, row.source),
      or(isNull(codehostBackfills.leaseUntil), lt(codehostBackfills.leaseUntil, sql`now()`), eq(codehostBackfills.leaseJobId, ctx.job.id))))
    .returning({ projectId: codehostBackfills.projectId });
  return taken.length > 0;
}

/** Saves the walk while this job holds it; every save is a heartbeat (it renews the lease, unless it gives the lease up). */
async function saveWalk(ctx: JobContext, row: Row, changes: Partial<typeof codehostBackfills.$inferInsert>): Promise<void> {
  const saved = await ctx.app.database.db.update(codehostBackfills)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${staleSeconds()})`, ...changes, updatedAt: sql`now()` })
    .where(and(eq(codehostBackfills.projectId, row.projectId), eq(codehostBackfills.source, row.source), eq(codehostBackfills.leaseJobId, ctx.job.id)))
    .returning({ projectId: codehostBackfills.projectId });
  if (saved.length === 0) throw new LeaseLost(`the backfill of ${row.source} was taken over by another run`);
}

/**
 * Renews the lease every quarter of BACKFILL_STALE while the walk waits on one long request (a
 * deployment with many status pages): only a worker that stopped altogether looks dead.
 */
function heartbeat(ctx: JobContext, row: Row): () => void {
  const timer = setInterval(() => {
    void ctx.app.database.db.update(codehostBackfills)
      .set({ leaseUntil: sql`now() + make_interval(secs => ${staleSeconds()})`, updatedAt: sql`now()` })
      .where(and(eq(codehostBackfills.projectId, row.projectId), eq(codehostBackfills.source, row.source), eq(codehostBackfills.leaseJobId, ctx.job.id)))
      .catch(() => {});
  }, Math.max(BACKFILL_STALE.ms / 4, 50));
  timer.unref();
  return () => clearInterval(timer);
}

/** The installation is this tenant's (the tenant's scope sees no other's), neither suspended nor removed. */
async function linkedHere(db: Executor, tenantId: string, installationId: number): Promise<boolean> {
  const [row] = await db.select({ id: codehostInstallations.installationId }).from(codehostInstallations)
    .where(and(eq(codehostInstallations.installationId, installationId), eq(codehostInstallations.tenantId, tenantId), isNull(codehostInstallations.suspendedAt), isNull(codehostInstallations.deletedAt)));
  return row !== undefined;
}

interface Project {
  projectKey: string;
  deploymentSource: DeploymentSource | null;
  syncPullRequests: boolean;
}

async function projectOf(ctx: JobContext, p: CodehostBackfillPayload): Promise<Project | undefined> {
  const [row] = await ctx.app.database.db.select({ projectKey: projects.projectKey, deploymentSource: projects.deploymentSource, syncPullRequests: projects.syncPullRequests }).from(projects)
    .where(and(eq(projects.tenantId, p.tenantId), eq(projects.id, p.projectId)));
  return row;
}

/**
 * The sources to read: the project's own; with none chosen yet, deployments (the first that
 * delivers one claims the project, as a delivery would) and then, with an organisation-wide
 * workflow pattern, workflow runs.
 */
async function sourcesOf(ctx: JobContext, p: CodehostBackfillPayload, project: Project): Promise<CodehostSource[]> {
  if (project.deploymentSource === 'webhook') return [];
  if (project.deploymentSource) return [project.deploymentSource];
  const [pattern] = await ctx.app.database.db.select({ workflow: deploymentSourceDefaults.workflow }).from(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, p.tenantId));
  return pattern ? ['deployments', 'workflow_runs'] : ['deployments'];
}

type Outcome = { source: WalkSource; outcome: string; applied?: number; stored?: number; continuesAt?: string };

/** One source's walk, from its cursor to the end of the window (or the next rate limit). */
async function walk(ctx: JobContext, p: CodehostBackfillPayload, client: CodehostRestClient, project: Project, source: WalkSource): Promise<Outcome> {
  const row = await openWalk(ctx, p, source);
  if (!row) return { source, outcome: 'already finished' };
  if (!(await takeLease(ctx, row))) return { source, outcome: 'another backfill of this project is running' };
  const stopBeating = heartbeat(ctx, row);
  try {
    return await walkLeased(ctx, p, client, project, source, row);
  } finally {
    stopBeating();
  }
}

async function walkLeased(ctx: JobContext, p: CodehostBackfillPayload, client: CodehostRestClient, project: Project, source: WalkSource, row: Row): Promise<Outcome> {
  const { db } = ctx.app.database;
  const walker = walkerOf(source);
  let applied = row.applied;
  let stored = 0;
  const started = Date.now();
  const spent = () => Date.now() - started >= RUN_BUDGET.ms;
  try {
    const installationId = p.installationId ?? row.installationId ?? (await client.repositoryInstallation(project.projectKey));
    // One answer whether the application is missing there or installed for another organisation:
    // which repositories of other organisations have it installed is not this tenant's to learn.
    if (installationId === null || !(await linkedHere(db, p.tenantId, installationId))) return await stop(ctx, row, source, `no installation linked to this organisation reads ${project.projectKey}`);
    if (row.installationId !== installationId) await saveWalk(ctx, row, { installationId });

    let cursor = row.cursor as Cursor | null;
    if (!cursor) {
      const { body } = await client.get<{ full_name: string; default_branch?: string | null }>(installationId, `/repos/${repoPath(project.projectKey)}`);
      const repository = { full_name: body.full_name, default_branch: body.default_branch ?? null };
      cursor = { phase: 'list', repository, next: walker.firstPage(repository.full_name, row.since), items: [] };
      await saveWalk(ctx, row, { cursor });
    }
    while (cursor.phase === 'list') {
      ctx.signal.throwIfAborted();
      const page: { body: unknown; next: string | null } = await client.get<unknown>(installationId, cursor.next);
      // A record this service cannot read (a field missing or malformed) is left out, as its event would be refused.
      const listed = walker.itemsOf(page.body).flatMap((item) => parsed(walker.item, item));
      const inWindow = listed.filter((item) => Date.parse(walker.createdAt(item)) >= row.since.getTime());
      const items: unknown[] = [...cursor.items, ...(walker.keep ? inWindow.filter((item) => walker.keep?.(item, row.since)) : inWindow)];
      // Newest first: a record older than the window ends the listing.
      cursor = page.next && inWindow.length === listed.length
        ? { ...cursor, next: page.next, items }
        : { phase: 'apply', repository: cursor.repository, items: oldestFirst(walker, items), index: 0 };
      await saveWalk(ctx, row, { cursor });
      if (spent()) return await handOver(ctx, p, row, source, applied, stored);
    }
    const repository = cursor.repository;
    while (cursor.index < cursor.items.length) {
      ctx.signal.throwIfAborted();
      const item = cursor.items[cursor.index];
      const extra = walker.extra ? await walker.extra(client, installationId, repository, item) : [];
      const refused = await db.transaction((tx) => walker.apply(tx, p.tenantId, repository, item, extra));
      if (!refused) stored++;
      applied++;
      cursor = { ...cursor, index: cursor.index + 1 };
      await saveWalk(ctx, row, { cursor, applied });
      await ctx.progress({ subject: { type: 'backfill', id: p.projectId }, done: cursor.index, total: cursor.items.length, message: `${cursor.index} of ${cursor.items.length} ${source.replace('_', ' ')} read from the code host` });
      // Another source took the project (an owner's switch, the webhook API's rows): the rest is not its.
      const now = source === 'pull_requests' ? null : await projectOf(ctx, p);
      if (now?.deploymentSource && now.deploymentSource !== source) {
        await saveWalk(ctx, row, { finishedAt: new Date(), leaseJobId: null, leaseUntil: null });
        return { source, outcome: `stopped: the project's deployment source is ${now.deploymentSource}`, applied, stored };
      }
      if (cursor.index < cursor.items.length && spent()) return await handOver(ctx, p, row, source, applied, stored);
    }
    await saveWalk(ctx, row, { finishedAt: new Date(), lastError: null, waitingUntil: null, leaseJobId: null, leaseUntil: null });
    return { source, outcome: 'finished', applied, stored };
  } catch (error) {
    if (error instanceof LeaseLost) return { source, outcome: 'another backfill of this project is running', applied, stored };
    if (error instanceof CodehostRateLimited) {
      const at = continueAt(error);
      await saveWalk(ctx, row, { waitingUntil: at, lastError: error.message, leaseJobId: null, leaseUntil: null });
      await ctx.app.jobs.send(codehostBackfill, { ...p, resume: true }, { startAfter: at });
      return { source, outcome: 'rate limited', applied, stored, continuesAt: at.toISOString() };
    }
    // The code host refused for good (no access, not found): retrying the same request would not help.
    if (error instanceof CodehostApiError && error.permanent) return await stop(ctx, row, source, error.message, applied);
    await saveWalk(ctx, row, { lastError: error instanceof CodehostApiError ? error.message : 'the backfill failed unexpectedly; it is retried', leaseJobId: null, leaseUntil: null }).catch(() => {});
    throw error;
  }
}

/** The run's time is up: the walk goes on in a continuation queued now, from the cursor just saved. */
async function handOver(ctx: JobContext, p: CodehostBackfillPayload, row: Row, source: WalkSource, applied: number, stored: number): Promise<Outcome> {
  await saveWalk(ctx, row, { leaseJobId: null, leaseUntil: null });
  await ctx.app.jobs.send(codehostBackfill, { ...p, resume: true });
  return { source, outcome: 'continues', applied, stored };
}

async function stop(ctx: JobContext, row: Row, source: WalkSource, reason: string, applied?: number): Promise<Outcome> {
  await saveWalk(ctx, row, { lastError: reason, leaseJobId: null, leaseUntil: null });
  return { source, outcome: `stopped: ${reason}`, ...(applied === undefined ? {} : { applied }) };
}

/** A walk that comes back (its continuation is queued, or another run holds the project): the job's later walks wait for it. */
const comesBack = (outcome: string) => outcome === 'rate limited' || outcome === 'continues' || outcome === 'another backfill of this project is running';

async function runBackfill(ctx: JobContext, p: CodehostBackfillPayload): Promise<{ outcome: string; walks: Outcome[] }> {
  const config = ctx.app.config.codehostApp;
  if (!config) return { outcome: 'skipped: the code-host application is not configured', walks: [] };
  const client = new CodehostRestClient(config, ctx.signal);
  const walks: Outcome[] = [];
  let project = await projectOf(ctx, p);
  if (!project) return { outcome: 'skipped: no such project', walks };
  for (const source of await sourcesOf(ctx, p, project)) {
    project = await projectOf(ctx, p);
    // A source that claimed the project (or the webhook API's rows) ends the others.
    if (!project || (project.deploymentSource !== null && project.deploymentSource !== source)) break;
    const result = await walk(ctx, p, client, project, source);
    walks.push(result);
    if (result.outcome !== 'finished' && result.outcome !== 'already finished') break;
  }
  // Then the pull requests and their reviews, whatever the deployment source (the webhook API's
  // too): once the deployment walks are done, so a continuation resumes them first.
  project = await projectOf(ctx, p);
  if (project?.syncPullRequests && !walks.some((w) => comesBack(w.outcome))) walks.push(await walk(ctx, p, client, project, 'pull_requests'));
  if (walks.every((w) => w.source === 'pull_requests')) {
    const skipped = `skipped: ${project?.projectKey ?? 'the project'} takes its deployments from the webhook API`;
    return { outcome: walks[0] ? `${skipped}; pull requests: ${walks[0].outcome}` : skipped, walks };
  }
  // The first walk that did not finish says why; else whether any read something.
  const unfinished = walks.find((w) => w.outcome !== 'finished' && w.outcome !== 'already finished');
  return { outcome: unfinished?.outcome ?? (walks.some((w) => w.outcome === 'finished') ? 'finished' : 'already finished'), walks };
}

export const codehostBackfill = defineJob({
  name: 'codehost.backfill',
  summary: `Reads the last ${BACKFILL_DAYS} days of one project's deployments (GitHub deployments and statuses, workflow runs or releases, by its source), then its pull requests with their reviews, commits and draft and review-request events, from the code host's REST API as the application's installation, and stores them as the webhook events would; after a rate limit it queues its own continuation for when the limit resets.`,
  idempotency: 'Every record is written by the webhook path\'s functions, keyed by its code-host id (gh-deployment-<id>, gh-run-<id>, gh-release-<id>; a PR by its number, a review by its id, a commit by its sha); the cursor saved after every page and record lets a retry resume, and a record applied twice is one row.',
  payload: CodehostBackfillPayload,
  tenantOf: (p) => p.tenantId,
  subjectOf: (p) => ({ type: 'backfill', id: p.projectId }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  expireInSeconds: EXPIRE_SECONDS,
  run: (ctx, p) => runBackfill(ctx, p),
});

/**
 * Queues the continuation of every walk whose worker died (its heartbeat older than BACKFILL_STALE:
 * the lease of a job that never gave it up), of one tenant or, from the sweep, of all. The
 * continuation resumes from the stored cursor. It gets the lease in the same transaction as it is
 * queued, so two requests at once queue one continuation; the dead job, retried after its expiry,
 * then finds the walk held or finished.
 */
export async function resumeStalledBackfills(app: Pick<AppContext, 'config' | 'database' | 'jobs'>, tenantId: string | null): Promise<number> {
  if (!app.config.codehostApp) return 0;
  return inTransaction(app.database.pool, async (client) => {
    const { rows } = await client.query<{ tenant_id: string; project_id: string; source: string }>(
      `select tenant_id, project_id, source from codehost_backfills
        where finished_at is null and lease_job_id is not null and lease_until < now() and ($1::uuid is null or tenant_id = $1::uuid)
        order by updated_at limit 100 for update skip locked`,
      [tenantId],
    );
    for (const row of rows) {
      const jobId = await app.jobs.send(codehostBackfill, { tenantId: row.tenant_id, projectId: row.project_id, resume: true }, { executor: client });
      await client.query(
        'update codehost_backfills set lease_job_id = $3, lease_until = now() + make_interval(secs => $4), updated_at = now() where project_id = $1 and source = $2',
        [row.project_id, row.source, jobId, staleSeconds()],
      );
    }
    return rows.length;
  });
}

export const codehostBackfillsResume = defineJob({
  ...scheduled,
  name: 'codehost.backfills-resume',
  summary: 'Queues the continuation of every code-host backfill whose worker died (no heartbeat for a minute), from its stored cursor.',
  idempotency: 'A walk it resumes gets the continuation\'s lease in the same transaction, so a second run (or a settings request) finds it held and queues nothing.',
  async run(ctx) {
    return { resumed: await resumeStalledBackfills(ctx.app, null) };
  },
});

/**
 * The organisation's workflow pattern was set: the projects it applies to (the code host's, with no
 * source yet, or on workflow runs without a workflow of their own) read their last 90 days again.
 */
export async function requestPatternBackfills(app: AppContext, tenantId: string): Promise<number> {
  if (!app.config.codehostApp) return 0;
  const rows = await app.database.db.select({ id: projects.id }).from(projects).where(and(
    eq(projects.tenantId, tenantId), eq(projects.provider, 'codehost'),
    or(isNull(projects.deploymentSource), and(eq(projects.deploymentSource, 'workflow_runs'), isNull(projects.deploymentWorkflow))),
  ));
  for (const row of rows) await app.jobs.send(codehostBackfill, { tenantId, projectId: row.id, resume: false });
  return rows.length;
}

/** Queues the backfill of a project when the code-host application is configured; resolves with the job id, or null. */
export async function requestBackfill(app: AppContext, payload: { tenantId: string; projectId: string; installationId?: number }): Promise<string | null> {
  if (!app.config.codehostApp) return null;
  return app.jobs.send(codehostBackfill, { ...payload, resume: false });
}

export const CodehostInstallationBackfillPayload = z.object({ tenantId: Uuid, installationId: z.number().int().positive() });
export type CodehostInstallationBackfillPayload = z.infer<typeof CodehostInstallationBackfillPayload>;

/**
 * An installation was linked: every repository it grants becomes a project (as its `installation`
 * event would have made it) and each project not on the webhook API gets its backfill.
 */
async function runInstallationBackfill(ctx: JobContext, p: CodehostInstallationBackfillPayload): Promise<{ outcome: string; repositories?: number; queued?: number }> {
  const config = ctx.app.config.codehostApp;
  if (!config) return { outcome: 'skipped: the code-host application is not configured' };
  const { db } = ctx.app.database;
  if (!(await linkedHere(db, p.tenantId, p.installationId))) return { outcome: 'skipped: the installation is not linked to this organisation' };
  const client = new CodehostRestClient(config, ctx.signal);
  const names: string[] = [];
  try {
    let next: string | null = `/installation/repositories?per_page=${PER_PAGE}`;
    while (next) {
      ctx.signal.throwIfAborted();
      const page: { body: { repositories?: { full_name: string }[] }; next: string | null } = await client.get(p.installationId, next);
      names.push(...(page.body.repositories ?? []).map((r) => r.full_name));
      next = page.next;
    }
  } catch (error) {
    if (error instanceof CodehostApiError && error.permanent) return { outcome: `stopped: ${error.message}` };
    if (!(error instanceof CodehostRateLimited)) throw error;
    // Listing again is cheap: the whole job comes back when the limit resets.
    const at = continueAt(error);
    await ctx.app.jobs.send(codehostInstallationBackfill, p, { startAfter: at });
    return { outcome: 'rate limited', repositories: names.length };
  }
  let queued = 0;
  for (const name of names) {
    const project = await db.transaction((tx) => ensureProject(tx, p.tenantId, name));
    // A project on the webhook API still reads its pull requests (its deployments are not read).
    await ctx.app.jobs.send(codehostBackfill, { tenantId: p.tenantId, projectId: project.id, installationId: p.installationId, resume: false });
    queued++;
  }
  return { outcome: 'queued', repositories: names.length, queued };
}

export const codehostInstallationBackfill = defineJob({
  name: 'codehost.installation-backfill',
  summary: `Lists the repositories a newly linked code-host installation grants, makes each a project and queues its ${BACKFILL_DAYS}-day backfill of deployments and pull requests (codehost.backfill).`,
  idempotency: 'Projects are found or created by repository; a second run queues backfills that resume or restart their walks, and those write each record once.',
  payload: CodehostInstallationBackfillPayload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 5,
  retryDelaySeconds: 30,
  run: (ctx, p) => runInstallationBackfill(ctx, p),
});

/** Queues the backfill of every repository of a newly linked installation (when the application is configured). */
export async function requestInstallationBackfill(app: Pick<AppContext, 'config' | 'jobs'>, tenantId: string, installationId: number): Promise<string | null> {
  if (!app.config.codehostApp) return null;
  return app.jobs.send(codehostInstallationBackfill, { tenantId, installationId });
}
