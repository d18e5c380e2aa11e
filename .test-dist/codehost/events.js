import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { commits, issues, projects, pullRequests } from "../db/schema/index.js";
import { linkPullRequestCommits, linkSessions } from "../aiSessions/activityLinks.js";
import { readTrailers } from "./aiTrailers.js";
const PROVIDER = "codehost";
const Repository = z.object({ full_name: z.string().min(3) });
const User = z.object({ login: z.string() }).nullish();
const Label = z.object({ name: z.string() });
const Time = z.string().nullish();
const PullRequestEvent = z.object({
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
    state: z.enum(["open", "closed"]),
    draft: z.boolean().nullish(),
    additions: z.number().int().nullish(),
    deletions: z.number().int().nullish(),
    changed_files: z.number().int().nullish(),
    commits: z.number().int().nullish(),
    labels: z.array(Label).nullish(),
    head: z.object({ ref: z.string(), sha: z.string(), label: z.string().nullish(), repo: z.object({ full_name: z.string() }).nullish() }),
    base: z.object({ ref: z.string() }).nullish(),
    merge_commit_sha: z.string().nullish(),
    created_at: z.string(),
    updated_at: Time,
    merged_at: Time,
    closed_at: Time
  })
});
const PushEvent = z.object({
  ref: z.string(),
  deleted: z.boolean().nullish(),
  repository: Repository,
  commits: z.array(
    z.object({
      id: z.string().regex(/^[0-9a-fA-F]{40,64}$/, "must be a hexadecimal commit id"),
      message: z.string(),
      timestamp: z.string(),
      url: z.string().nullish(),
      author: z.object({ name: z.string().nullish(), email: z.string().nullish(), username: z.string().nullish() }).nullish()
    })
  ).default([])
});
const IssuesEvent = z.object({
  action: z.string(),
  repository: Repository,
  issue: z.object({
    id: z.number(),
    number: z.number().int(),
    title: z.string(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
    state: z.enum(["open", "closed"]),
    user: User,
    assignee: User,
    labels: z.array(Label).nullish(),
    created_at: z.string(),
    closed_at: Time,
    pull_request: z.unknown().optional()
  })
});
const RepositoryEvent = z.object({
  action: z.string(),
  repository: Repository,
  changes: z.object({ repository: z.object({ name: z.object({ from: z.string() }).optional() }).optional() }).optional()
});
const date = (value) => value ? new Date(value) : null;
const sameKey = (projectKey) => sql`lower(${projects.projectKey}) = lower(${projectKey})`;
async function ensureProject(tx, tenantId, projectKey) {
  const columns = { id: projects.id, syncIssues: projects.syncIssues, syncPullRequests: projects.syncPullRequests, provider: projects.provider, projectKey: projects.projectKey };
  const [found] = await tx.select(columns).from(projects).where(and(eq(projects.tenantId, tenantId), sameKey(projectKey)));
  if (found && found.provider === PROVIDER && found.projectKey === projectKey) return found;
  if (!found) await tx.insert(projects).values({ tenantId, provider: PROVIDER, projectKey, sourceType: PROVIDER }).onConflictDoNothing();
  const [row] = await tx.update(projects).set({ provider: PROVIDER, sourceType: PROVIDER, projectKey }).where(and(eq(projects.tenantId, tenantId), sameKey(projectKey))).returning(columns);
  return row;
}
async function applyPullRequest(tx, tenantId, event) {
  const pr = event.pull_request;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const projectId = project.id;
  const fromFork = pr.head.repo != null && pr.head.repo.full_name !== event.repository.full_name;
  const headBranch = fromFork ? pr.head.label ?? `${pr.head.repo?.full_name.split("/")[0]}:${pr.head.ref}` : pr.head.ref;
  const values = {
    tenantId,
    projectId,
    provider: PROVIDER,
    externalId: String(pr.id),
    number: pr.number,
    title: pr.title,
    url: pr.html_url ?? null,
    authorUsername: pr.user?.login ?? null,
    state: pr.merged_at ? "merged" : pr.state,
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
    updatedAt: date(pr.updated_at) ?? /* @__PURE__ */ new Date()
  };
  const { tenantId: _t, projectId: _p, number: _n, ...changes } = values;
  const [row] = await tx.insert(pullRequests).values(values).onConflictDoUpdate({
    target: [pullRequests.projectId, pullRequests.number],
    set: { ...changes, receivedAt: sql`now()` },
    setWhere: sql`${pullRequests.updatedAt} <= excluded.updated_at`
  }).returning({ id: pullRequests.id });
  const id = row?.id ?? (await tx.select({ id: pullRequests.id }).from(pullRequests).where(and(eq(pullRequests.projectId, projectId), eq(pullRequests.number, pr.number))))[0]?.id;
  if (!id) return;
  await linkPullRequestCommits(tx, tenantId, { pullRequestId: id });
  await linkSessions(tx, tenantId, { pullRequestId: id });
}
async function applyPush(tx, tenantId, event) {
  const projectId = (await ensureProject(tx, tenantId, event.repository.full_name)).id;
  if (event.deleted || !event.ref.startsWith("refs/heads/") || event.commits.length === 0) return;
  const branch = event.ref.slice("refs/heads/".length);
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
    ...readTrailers(c.message)
  }));
  await tx.insert(commits).values(rows).onConflictDoNothing();
  const shas = rows.map((r) => r.sha);
  const stored = await tx.select({ id: commits.id }).from(commits).where(and(eq(commits.projectId, projectId), sql`${commits.sha} = any(${`{${shas.join(",")}}`}::text[])`));
  const commitIds = stored.map((r) => r.id);
  await linkPullRequestCommits(tx, tenantId, { commitIds, branch });
  await linkSessions(tx, tenantId, { commits: { ids: commitIds, shas } });
}
const ISSUE_TYPES = {
  bug: "bug",
  incident: "incident",
  feature: "feature",
  enhancement: "feature",
  chore: "chore",
  discovery: "discovery",
  spike: "discovery"
};
function issueTypeOf(labels) {
  for (const label of labels) {
    const type = ISSUE_TYPES[label.toLowerCase().replace(/^(type|kind)[:/]\s*/, "")];
    if (type) return type;
  }
  return "other";
}
async function applyIssue(tx, tenantId, event) {
  const issue = event.issue;
  if (issue.pull_request !== void 0) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncIssues) return;
  const projectId = project.id;
  const externalId = String(issue.id);
  if (event.action === "deleted") {
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
    closedAt: date(issue.closed_at)
  };
  const { tenantId: _t, provider: _p, externalId: _e, ...changes } = values;
  await tx.insert(issues).values(values).onConflictDoUpdate({ target: [issues.tenantId, issues.provider, issues.externalId], set: { ...changes, updatedAt: sql`now()` } });
}
async function applyRepository(tx, tenantId, event) {
  const to = event.repository.full_name;
  const fromName = event.changes?.repository?.name?.from;
  if (event.action === "renamed" && fromName) {
    const from = `${to.split("/")[0]}/${fromName}`;
    const [existing] = await tx.select({ id: projects.id }).from(projects).where(and(eq(projects.tenantId, tenantId), sameKey(to)));
    if (!existing) {
      const moved = await tx.update(projects).set({ projectKey: to, provider: PROVIDER, sourceType: PROVIDER }).where(and(eq(projects.tenantId, tenantId), sameKey(from))).returning({ id: projects.id });
      if (moved.length > 0) return;
    }
  }
  await ensureProject(tx, tenantId, to);
}
export {
  IssuesEvent,
  PROVIDER,
  PullRequestEvent,
  PushEvent,
  Repository,
  RepositoryEvent,
  User,
  applyIssue,
  applyPullRequest,
  applyPush,
  applyRepository,
  ensureProject,
  issueTypeOf,
  sameKey
};
