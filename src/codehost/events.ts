/**
 * Code-host events → facts of one tenant: projects (provider `codehost`), pull requests, commits
 * and issues. Each function runs inside the transaction that records the delivery.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { commits, issues, projects, pullRequests } from '../db/schema/index.js';
import { linkPullRequestCommits, linkSessions, type Executor } from '../aiSessions/activityLinks.js';
import { readTrailers } from './aiTrailers.js';
import { pgTimestamp } from '../shared/limits.js';

export const PROVIDER = 'codehost';

export const Repository = z.object({ full_name: z.string().min(3) });
export const User = z.object({ login: z.string() }).nullish();
const Label = z.object({ name: z.string() });
/**
 * A moment the code host gives: ISO 8601 with an offset, within what `timestamptz` stores
 * (shared/limits.ts). A signed payload's date that does not parse is the delivery's 400 naming
 * the field, never an Invalid Date that fails the write (issue 43).
 */
export const Timestamp = pgTimestamp('Must be an ISO 8601 timestamp with an offset, e.g. 2024-05-01T12:00:00Z');
export const Time = Timestamp.nullish();

export const PullRequestEvent = z.object({
  action: z.string(),
  repository: Repository,
  /** The person asked (or no longer asked) to review, on `review_requested` / `review_request_removed` (reviews.ts). */
  requested_reviewer: z.object({ login: z.string().min(1) }).nullish(),
  pull_request: z.object({
    id: z.number(),
    number: z.number().int(),
    title: z.string(),
    html_url: z.string().nullish(),
    user: User,
    state: z.enum(['open', 'closed']),
    draft: z.boolean().nullish(),
    additions: z.number().int().nullish(),
    deletions: z.number().int().nullish(),
    changed_files: z.number().int().nullish(),
    commits: z.number().int().nullish(),
    labels: z.array(Label).nullish(),
    head: z.object({ ref: z.string(), sha: z.string(), label: z.string().nullish(), repo: z.object({ full_name: z.string() }).nullish() }),
    base: z.object({ ref: z.string() }).nullish(),
    merge_commit_sha: z.string().nullish(),
    created_at: Timestamp,
    updated_at: Time,
    merged_at: Time,
    closed_at: Time,
  }),
});

export const PushEvent = z.object({
  ref: z.string(),
  deleted: z.boolean().nullish(),
  repository: Repository,
  commits: z
    .array(
      z.object({
        id: z.string().regex(/^[0-9a-fA-F]{40,64}$/, 'must be a hexadecimal commit id'),
        message: z.string(),
        timestamp: Timestamp,
        url: z.string().nullish(),
        author: z.object({ name: z.string().nullish(), email: z.string().nullish(), username: z.string().nullish() }).nullish(),
      }),
    )
    .default([]),
});

export const IssuesEvent = z.object({
  action: z.string(),
  repository: Repository,
  issue: z.object({
    id: z.number(),
    number: z.number().int(),
    title: z.string(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
    state: z.enum(['open', 'closed']),
    user: User,
    assignee: User,
    labels: z.array(Label).nullish(),
    created_at: Timestamp,
    closed_at: Time,
    pull_request: z.unknown().optional(),
  }),
});

export const RepositoryEvent = z.object({
  action: z.string(),
  repository: Repository,
  changes: z.object({ repository: z.object({ name: z.object({ from: z.string() }).optional() }).optional() }).optional(),
});

const date = (value: string | null | undefined) => (value ? new Date(value) : null);

/** The tenant's project of a key: one per repository, whatever the key's case (docs/activity.md). */
export const sameKey = (projectKey: string) => sql`lower(${projects.projectKey}) = lower(${projectKey})`;

/**
 * The tenant's project of `owner/repo`, created when first seen. A project the webhook API or a
 * team's ownership made first is the same repository: it becomes the code host's (provider
 * `codehost`, the code host's spelling of the key) and keeps its rows, owner and sync flags.
 */
export async function ensureProject(tx: Executor, tenantId: string, projectKey: string): Promise<{ id: string; syncIssues: boolean; syncPullRequests: boolean }> {
  const columns = { id: projects.id, syncIssues: projects.syncIssues, syncPullRequests: projects.syncPullRequests, provider: projects.provider, projectKey: projects.projectKey };
  const [found] = await tx.select(columns).from(projects).where(and(eq(projects.tenantId, tenantId), sameKey(projectKey)));
  if (found && found.provider === PROVIDER && found.projectKey === projectKey) return found;
  // Written only when new or not yet the code host's, so deliveries of one repository do not
  // queue on its row.
  if (!found) await tx.insert(projects).values({ tenantId, provider: PROVIDER, projectKey, sourceType: PROVIDER }).onConflictDoNothing();
  const [row] = await tx.update(projects).set({ provider: PROVIDER, sourceType: PROVIDER, projectKey })
    .where(and(eq(projects.tenantId, tenantId), sameKey(projectKey))).returning(columns);
  return row as { id: string; syncIssues: boolean; syncPullRequests: boolean };
}

/**
 * Upserts the PR; an older delivery arriving after a newer one, or replayed under a new delivery
 * id (by the PR's `updated_at`), does not overwrite it. Then its commits and sessions are linked.
 */
export async function applyPullRequest(tx: Executor, tenantId: string, event: z.infer<typeof PullRequestEvent>): Promise<void> {
  const pr = event.pull_request;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const projectId = project.id;
  // A fork's branch is not a branch of this repository: keep it as `owner:branch` (the code host's
  // label) so pushes to a same-named branch here are never taken for the PR's commits.
  const fromFork = pr.head.repo != null && pr.head.repo.full_name !== event.repository.full_name;
  const headBranch = fromFork ? (pr.head.label ?? `${pr.head.repo?.full_name.split('/')[0]}:${pr.head.ref}`) : pr.head.ref;
  const values = {
    tenantId,
    projectId,
    provider: PROVIDER,
    externalId: String(pr.id),
    number: pr.number,
    title: pr.title,
    url: pr.html_url ?? null,
    authorUsername: pr.user?.login ?? null,
    state: pr.merged_at ? ('merged' as const) : pr.state,
    draft: pr.draft ?? false,
    additions: pr.additions ?? 0,
    deletions: pr.deletions ?? 0,
    changedFiles: pr.changed_files ?? 0,
    commitCount: pr.commits ?? 0,
    labels: (pr.labels ?? []).map((l) => l.name),
    headBranch,
    headSha: pr.head.sha,
    baseBranch: pr.base?.ref ?? null,
    mergeCommitSha: pr.merge_commit_sha ?? null,
    createdAt: new Date(pr.created_at),
    mergedAt: date(pr.merged_at),
    closedAt: date(pr.closed_at),
    // The state's own time: a payload without `updated_at` falls back to its latest time, never to
    // now, so a replay of it cannot pass for the newest state (docs/codehost-deployments-backfill.md "Replays and late deliveries").
    updatedAt: date(pr.updated_at) ?? new Date(Math.max(...[pr.closed_at, pr.merged_at, pr.created_at].map((t) => (t ? Date.parse(t) : 0)))),
  };
  const { tenantId: _t, projectId: _p, number: _n, ...changes } = values;
  // Ready for review (METRICS.md "PR phases"): a PR first seen as a non-draft was ready when opened;
  // one first seen as a draft is ready when first seen otherwise (its `ready_for_review`, whose
  // `updated_at` is that moment), and an earlier moment delivered late wins (readyFor below).
  const readyAt = values.draft ? null : action(event) === 'ready_for_review' ? values.updatedAt : values.createdAt;
  const [row] = await tx
    .insert(pullRequests)
    .values({ ...values, readyAt })
    .onConflictDoUpdate({
      target: [pullRequests.projectId, pullRequests.number],
      set: {
        ...changes,
        receivedAt: sql`now()`,
        readyAt: values.draft ? sql`${pullRequests.readyAt}` : sql`coalesce(${pullRequests.readyAt}, ${values.updatedAt})`,
        // The author may have been unknown, or differ: the first review is someone else's. The
        // proposed row's value is the one the BEFORE INSERT trigger computed from the stored reviews
        // for the delivery's author (src/codehost/sql/pull_request_first_review.sql).
        firstReviewAt: sql`excluded.first_review_at`,
      },
      setWhere: sql`${pullRequests.updatedAt} <= excluded.updated_at`,
    })
    .returning({ id: pullRequests.id });
  // A `ready_for_review` delivered after a newer event (which the upsert above then skips) still
  // moves ready to the earlier moment.
  if (!row && action(event) === 'ready_for_review') {
    await tx.update(pullRequests).set({ readyAt: sql`least(coalesce(${pullRequests.readyAt}, ${values.updatedAt}), ${values.updatedAt})` })
      .where(and(eq(pullRequests.projectId, projectId), eq(pullRequests.number, pr.number)));
  }
  const id =
    row?.id ??
    (await tx.select({ id: pullRequests.id }).from(pullRequests).where(and(eq(pullRequests.projectId, projectId), eq(pullRequests.number, pr.number))))[0]?.id;
  if (!id) return;
  await linkPullRequestCommits(tx, tenantId, { pullRequestId: id });
  await linkSessions(tx, tenantId, { pullRequestId: id });
}

const action = (event: { action: string }) => event.action;

/** Commits of a branch push (the code host lists at most 20 per push); tags and deletions carry none. */
export async function applyPush(tx: Executor, tenantId: string, event: z.infer<typeof PushEvent>): Promise<void> {
  const projectId = (await ensureProject(tx, tenantId, event.repository.full_name)).id;
  if (event.deleted || !event.ref.startsWith('refs/heads/') || event.commits.length === 0) return;
  const branch = event.ref.slice('refs/heads/'.length);
  const rows = event.commits.map((c) => ({
    tenantId,
    projectId,
    sha: c.id.toLowerCase(),
    branch,
    authorUsername: c.author?.username ?? null,
    authorName: c.author?.name ?? null,
    authorEmail: c.author?.email?.toLowerCase() ?? null,
    committedAt: new Date(c.timestamp),
    message: c.message,
    url: c.url ?? null,
    ...readTrailers(c.message),
  }));
  await tx.insert(commits).values(rows).onConflictDoNothing();
  const shas = rows.map((r) => r.sha);
  const stored = await tx
    .select({ id: commits.id })
    .from(commits)
    .where(and(eq(commits.projectId, projectId), sql`${commits.sha} = any(${`{${shas.join(',')}}`}::text[])`));
  const commitIds = stored.map((r) => r.id);
  await linkPullRequestCommits(tx, tenantId, { commitIds, branch });
  await linkSessions(tx, tenantId, { commits: { ids: commitIds, shas } });
}

const ISSUE_TYPES: Record<string, string> = {
  bug: 'bug',
  incident: 'incident',
  feature: 'feature',
  enhancement: 'feature',
  chore: 'chore',
  discovery: 'discovery',
  spike: 'discovery',
};

/** The issue type from its labels (first label that names one), else `other`. */
export function issueTypeOf(labels: string[]): string {
  for (const label of labels) {
    const type = ISSUE_TYPES[label.toLowerCase().replace(/^(type|kind)[:/]\s*/, '')];
    if (type) return type;
  }
  return 'other';
}

export async function applyIssue(tx: Executor, tenantId: string, event: z.infer<typeof IssuesEvent>): Promise<void> {
  const issue = event.issue;
  if (issue.pull_request !== undefined) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncIssues) return;
  const projectId = project.id;
  const externalId = String(issue.id);
  if (event.action === 'deleted') {
    await tx.delete(issues).where(and(eq(issues.tenantId, tenantId), eq(issues.provider, PROVIDER), eq(issues.externalId, externalId)));
    return;
  }
  const labels = (issue.labels ?? []).map((l) => l.name);
  const values = {
    tenantId,
    projectId,
    provider: PROVIDER,
    externalId,
    number: issue.number,
    title: issue.title,
    type: issueTypeOf(labels),
    state: issue.state,
    body: issue.body ?? null,
    url: issue.html_url ?? null,
    authorUsername: issue.user?.login ?? null,
    assigneeUsername: issue.assignee?.login ?? null,
    labels,
    createdAt: new Date(issue.created_at),
    closedAt: date(issue.closed_at),
  };
  const { tenantId: _t, provider: _p, externalId: _e, ...changes } = values;
  await tx
    .insert(issues)
    .values(values)
    .onConflictDoUpdate({ target: [issues.tenantId, issues.provider, issues.externalId], set: { ...changes, updatedAt: sql`now()` } });
}

/** Repository created or renamed: the project follows (a rename keeps the project's history). */
export async function applyRepository(tx: Executor, tenantId: string, event: z.infer<typeof RepositoryEvent>): Promise<void> {
  const to = event.repository.full_name;
  const fromName = event.changes?.repository?.name?.from;
  if (event.action === 'renamed' && fromName) {
    const from = `${to.split('/')[0]}/${fromName}`;
    const [existing] = await tx.select({ id: projects.id }).from(projects).where(and(eq(projects.tenantId, tenantId), sameKey(to)));
    if (!existing) {
      const moved = await tx.update(projects).set({ projectKey: to, provider: PROVIDER, sourceType: PROVIDER })
        .where(and(eq(projects.tenantId, tenantId), sameKey(from)))
        .returning({ id: projects.id });
      if (moved.length > 0) return;
    }
  }
  await ensureProject(tx, tenantId, to);
}
