/**
 * What the backfill (backfill.ts) reads for each deployment source and for pull requests, and how
 * each record becomes the events the code host would have delivered, written by the webhook
 * path's own functions.
 */
import { z } from 'zod';
import type { Executor } from '../aiSessions/activityLinks.js';
import type { DeploymentSource } from '../db/schema/index.js';
import {
  applyDeployment, applyDeploymentStatus, applyRelease, applyWorkflowRun, DeploymentEvent, DeploymentStatusEvent, ReleaseEvent, WorkflowRunEvent, type NotStored,
} from './deployments.js';
import { applyPush, PullRequestEvent, PushEvent, Timestamp } from './events.js';
import { applyPullRequestAndReviewers, applyPullRequestReview, Review } from './reviews.js';
import { repoPath, type CodehostRestClient } from './restClient.js';

export const PER_PAGE = 100;

export type CodehostSource = Exclude<DeploymentSource, 'webhook'>;
/** What one walk reads: a deployment source's records, or the repository's pull requests (with their reviews). */
export type WalkSource = CodehostSource | 'pull_requests';
export type Repository = { full_name: string; default_branch: string | null };

export interface Walker {
  item: z.ZodType<Record<string, unknown>>;
  firstPage(repository: string, since: Date): string;
  itemsOf(body: unknown): unknown[];
  /**
   * The moment the list is ordered by (newest first; a deployment's creation, a pull request's
   * last update): the walk stops at the first older than the window and applies them by it.
   */
  createdAt(item: any): string;
  /** Besides the moment above, whether a listed record belongs to the window (all do when absent). */
  keep?(item: any, since: Date): boolean;
  /** Writes one record as its events, in the order the code host would have delivered them. */
  apply(tx: Executor, tenantId: string, repository: Repository, item: any, extra: unknown[]): Promise<NotStored | void>;
  /** What a record needs besides itself (a deployment's statuses), read before its transaction. */
  extra?(client: CodehostRestClient, installationId: number, repository: Repository, item: any): Promise<unknown[]>;
}

const asArray = (body: unknown): unknown[] => (Array.isArray(body) ? body : []);

/** Every page of a list from `path` on, each item as `schema` reads it (an unreadable one left out). */
async function allPages<T>(client: CodehostRestClient, installationId: number, path: string, schema: z.ZodType<T>): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next) {
    const page: { body: unknown; next: string | null } = await client.get(installationId, next);
    items.push(...asArray(page.body).flatMap((item) => parsed(schema, item)));
    next = page.next;
  }
  return items;
}
export const parsed = <T>(schema: z.ZodType<T>, value: unknown): T[] => {
  const result = schema.safeParse(value);
  return result.success ? [result.data] : [];
};

export const WALKERS: Record<CodehostSource, Walker> = {
  deployments: {
    item: DeploymentEvent.shape.deployment,
    firstPage: (repo) => `/repos/${repoPath(repo)}/deployments?per_page=${PER_PAGE}`,
    itemsOf: asArray,
    createdAt: (d) => d.created_at,
    async extra(client, installationId, repository, d) {
      const statuses: unknown[] = [];
      let next: string | null = `/repos/${repoPath(repository.full_name)}/deployments/${d.id}/statuses?per_page=${PER_PAGE}`;
      while (next) {
        const page: { body: unknown; next: string | null } = await client.get(installationId, next);
        statuses.push(...asArray(page.body).flatMap((s) => parsed(DeploymentStatusEvent.shape.deployment_status, s)));
        next = page.next;
      }
      return statuses.sort((a: any, b: any) => a.id - b.id);
    },
    async apply(tx, tenantId, repository, deployment, statuses) {
      const refused = await applyDeployment(tx, tenantId, { action: 'created', repository, deployment });
      if (refused) return refused;
      for (const status of statuses as any[]) await applyDeploymentStatus(tx, tenantId, { action: 'created', repository, deployment, deployment_status: status });
    },
  },
  workflow_runs: {
    item: WorkflowRunEvent.shape.workflow_run,
    // Completed runs only (the others have no conclusion yet); the workflow and branch rule is applyWorkflowRun's.
    firstPage: (repo, since) => `/repos/${repoPath(repo)}/actions/runs?status=completed&created=${encodeURIComponent(`>=${since.toISOString().slice(0, 10)}`)}&per_page=${PER_PAGE}`,
    itemsOf: (body) => (body as { workflow_runs?: unknown[] })?.workflow_runs ?? [],
    createdAt: (run) => run.created_at,
    apply: (tx, tenantId, repository, run) => applyWorkflowRun(tx, tenantId, { action: 'completed', repository, workflow: null, workflow_run: run }),
  },
  releases: {
    item: ReleaseEvent.shape.release,
    firstPage: (repo) => `/repos/${repoPath(repo)}/releases?per_page=${PER_PAGE}`,
    itemsOf: asArray,
    createdAt: (r) => r.published_at ?? r.created_at ?? new Date(0).toISOString(),
    apply: (tx, tenantId, repository, release) => applyRelease(tx, tenantId, { action: 'published', repository, release }),
  },
};

/** A commit of `GET /repos/{o}/{r}/pulls/{n}/commits` (GitHub's shape). */
const PullCommit = z.object({
  sha: z.string(),
  html_url: z.string().nullish(),
  author: z.object({ login: z.string() }).nullish(),
  commit: z.object({ message: z.string(), author: z.object({ name: z.string().nullish(), email: z.string().nullish(), date: Timestamp }) }),
});

/**
 * An event of `GET /repos/{o}/{r}/issues/{n}/events`: those replayed are a draft made ready (or
 * made a draft again) and a person asked to review (or no longer), each with its moment.
 */
const IssueEvent = z.object({
  id: z.number(),
  event: z.string(),
  created_at: Timestamp,
  requested_reviewer: z.object({ login: z.string().min(1) }).nullish(),
});

const PullRequest = PullRequestEvent.shape.pull_request;
type PullRequest = z.infer<typeof PullRequest>;

export interface PullRequestRecords {
  /** `GET …/pulls/{n}`: the list lacks additions, deletions, changed files and commits. */
  detail: PullRequest | null;
  reviews: z.infer<typeof Review>[];
  commits: z.infer<typeof PullCommit>[];
  events: z.infer<typeof IssueEvent>[];
}

/** What happened to a PR, as the events the code host would have delivered, in order. */
type Step = { at: number; order: number; apply: (tx: Executor, tenantId: string) => Promise<unknown> };

/**
 * Replays one pull request through the webhook path: its commits as a push of its branch (not a
 * fork's: those pushes never reach this repository's webhook either), `opened` (as a draft when its
 * first draft event is `ready_for_review`), each `ready_for_review` / `converted_to_draft` and
 * review request at its own moment, each submitted review, then its current state. The PR's
 * intermediate states carry its moment as `updated_at`, so the current state (the newest) wins and
 * a state the webhook already stored is overwritten only by a newer one, as for a late delivery.
 */
async function applyPullRequestRecords(tx: Executor, tenantId: string, repository: Repository, listed: PullRequest, records: PullRequestRecords): Promise<void> {
  const pr: PullRequest = { ...listed, ...(records.detail ?? {}) };
  const repo = { full_name: repository.full_name };
  const fromFork = pr.head.repo != null && pr.head.repo.full_name.toLowerCase() !== repository.full_name.toLowerCase();
  const pushed = fromFork ? [] : records.commits.map((c) => ({
    id: c.sha, message: c.commit.message, timestamp: c.commit.author.date, url: c.html_url ?? null,
    author: { name: c.commit.author.name ?? null, email: c.commit.author.email ?? null, username: c.author?.login ?? null },
  })).flatMap((c) => parsed(PushEvent, { ref: `refs/heads/${pr.head.ref}`, repository: repo, commits: [c] }).flatMap((e) => e.commits));
  if (pushed.length > 0) await applyPush(tx, tenantId, { ref: `refs/heads/${pr.head.ref}`, deleted: false, repository: repo, commits: pushed });

  const closedAt = pr.closed_at ? Date.parse(pr.closed_at) : Infinity;
  const at = (t: string) => Date.parse(t);
  const drafts = records.events.filter((e) => e.event === 'ready_for_review' || e.event === 'convert_to_draft').sort((a, b) => at(a.created_at) - at(b.created_at) || a.id - b.id);
  let draft = drafts.length > 0 ? drafts[0]!.event === 'ready_for_review' : (pr.draft ?? false);
  /** The PR as it stood at `t`: open until it was closed; its draft flag as replayed so far. */
  const asAt = (t: string): PullRequest => (at(t) >= closedAt ? { ...pr, draft, updated_at: t } : { ...pr, draft, state: 'open', merged_at: null, closed_at: null, updated_at: t });
  const pullRequest = (action: string, t: string, extra: Record<string, unknown> = {}) => (tx: Executor, tenant: string) =>
    applyPullRequestAndReviewers(tx, tenant, { action, repository: repo, pull_request: asAt(t), ...extra });

  const steps: Step[] = [{ at: at(pr.created_at), order: 0, apply: pullRequest('opened', pr.created_at) }];
  for (const e of records.events) {
    const t = e.created_at;
    if (e.event === 'ready_for_review' || e.event === 'convert_to_draft') {
      const ready = e.event === 'ready_for_review';
      steps.push({ at: at(t), order: 1, apply: (tx, tenant) => { draft = !ready; return pullRequest(ready ? 'ready_for_review' : 'converted_to_draft', t)(tx, tenant); } });
    } else if ((e.event === 'review_requested' || e.event === 'review_request_removed') && e.requested_reviewer) {
      steps.push({ at: at(t), order: 2, apply: pullRequest(e.event, t, { requested_reviewer: { login: e.requested_reviewer.login } }) });
    }
  }
  for (const review of records.reviews) {
    if (!review.submitted_at) continue;
    steps.push({ at: at(review.submitted_at), order: 3, apply: (tx, tenant) => applyPullRequestReview(tx, tenant, { action: 'submitted', repository: repo, review, pull_request: { number: pr.number, updated_at: review.submitted_at } }) });
  }
  steps.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const step of steps) await step.apply(tx, tenantId);
  // The current state last: never older than a moment replayed before it (the code host's clock).
  const latest = Math.max(...steps.map((s) => s.at), pr.updated_at ? at(pr.updated_at) : 0);
  await applyPullRequestAndReviewers(tx, tenantId, {
    action: pr.state === 'closed' ? 'closed' : 'edited', repository: repo,
    pull_request: { ...pr, updated_at: pr.updated_at && at(pr.updated_at) >= latest ? pr.updated_at : new Date(latest).toISOString() },
  });
}

/**
 * Pull requests updated in the window (`sort=updated`, newest first), each with its reviews, its
 * commits and its draft and review-request events; one closed before the window (edited since) is
 * left out, as its month lies before the 90 days read.
 */
export const PULL_REQUESTS: Walker = {
  item: PullRequest,
  firstPage: (repo) => `/repos/${repoPath(repo)}/pulls?state=all&sort=updated&direction=desc&per_page=${PER_PAGE}`,
  itemsOf: asArray,
  createdAt: (pr) => pr.updated_at ?? pr.created_at,
  keep: (pr, since) => !pr.closed_at || Date.parse(pr.closed_at) >= since.getTime(),
  async extra(client, installationId, repository, pr): Promise<unknown[]> {
    const base = `/repos/${repoPath(repository.full_name)}`;
    const { body } = await client.get<unknown>(installationId, `${base}/pulls/${pr.number}`);
    const records: PullRequestRecords = {
      detail: parsed(PullRequest, body)[0] ?? null,
      reviews: await allPages(client, installationId, `${base}/pulls/${pr.number}/reviews?per_page=${PER_PAGE}`, Review),
      commits: await allPages(client, installationId, `${base}/pulls/${pr.number}/commits?per_page=${PER_PAGE}`, PullCommit),
      events: await allPages(client, installationId, `${base}/issues/${pr.number}/events?per_page=${PER_PAGE}`, IssueEvent),
    };
    return [records];
  },
  apply: (tx, tenantId, repository, pr, [records]) => applyPullRequestRecords(tx, tenantId, repository, pr, records as PullRequestRecords),
};

export const walkerOf = (source: WalkSource): Walker => (source === 'pull_requests' ? PULL_REQUESTS : WALKERS[source]);

/** Oldest first, each record once (a record added while the list was paged shifts the others to the next page). */
export function oldestFirst(walker: Walker, items: any[]): unknown[] {
  const byId = new Map(items.map((item) => [item.id as number, item]));
  return [...byId.values()].sort((a, b) => Date.parse(walker.createdAt(a)) - Date.parse(walker.createdAt(b)) || a.id - b.id);
}
