/**
 * Links between AI sessions and the pull requests and commits they produced, kept up to date from
 * whichever side arrives: a new session looks for its PR and commits; a new PR or push looks for
 * the sessions that named it. Every statement is an idempotent INSERT … SELECT (the unique indexes
 * of ai_session_links and pull_request_commits absorb repeats), scoped to one tenant and to the
 * rows that just changed, so arrival order never matters and reruns are harmless.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';

export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface LinkScope {
  sessionId?: string;
  pullRequestId?: string;
  /** Commits just stored, with their shas (the shas give the prefixes a session may have named). */
  commits?: { ids: string[]; shas: string[] };
}

/** Every prefix of 7 to 40 characters of the given shas: what a session may have named. */
const prefixesOf = (shas: string[]) => [...new Set(shas.flatMap((sha) => Array.from({ length: Math.max(0, sha.length - 6) }, (_, i) => sha.slice(0, 7 + i))))];
const textArray = (values: string[]) => sql`${`{${values.join(',')}}`}::text[]`;

const uuidArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** Session ↔ PR (by PR number and by branch), session ↔ commit (by sha prefix), session ↔ PR through a linked commit. */
export async function linkSessions(tx: Executor, tenantId: string, scope: LinkScope): Promise<void> {
  const onSession = scope.sessionId ? sql`and s.id = ${scope.sessionId}` : sql``;
  const onPr = scope.pullRequestId ? sql`and pr.id = ${scope.pullRequestId}` : sql``;
  const onCommits = scope.commits ? sql`and c.id = any(${uuidArray(scope.commits.ids)})` : sql``;

  if (!scope.commits) {
    for (const [column, kind] of [
      [sql`pr.number = s.pr_number`, 'pr_number'],
      [sql`pr.head_branch = s.branch`, 'branch'],
    ] as const) {
      await tx.execute(sql`
        insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by)
        select s.tenant_id, s.id, pr.id, ${kind}
        from ai_sessions s
        join projects p on p.tenant_id = s.tenant_id and lower(p.project_key) = lower(s.project_key)
        join pull_requests pr on pr.project_id = p.id and ${column}
        where s.tenant_id = ${tenantId} ${onSession} ${onPr}
        on conflict do nothing`);
    }
  }

  if (!scope.pullRequestId) {
    // A session that names its repository only matches commits of that repository. Named shas are
    // hex prefixes (ai_session_shas): from the session side `sha >= p and sha < p || 'g'` is the
    // prefix range the commits (tenant_id, sha) index serves; from the commit side every prefix
    // of the pushed shas is looked up in the (tenant_id, sha) index of ai_session_shas.
    const sameRepository = sql`(s.project_key is null or exists (select 1 from projects p where p.id = c.project_id and lower(p.project_key) = lower(s.project_key)))`;
    if (scope.commits) {
      if (scope.commits.ids.length === 0) return;
      await tx.execute(sql`
        insert into ai_session_links (tenant_id, session_id, commit_id, linked_by)
        select n.tenant_id, n.session_id, c.id, 'commit_sha'
        from ai_session_shas n
        join commits c on c.tenant_id = n.tenant_id ${onCommits} and c.sha like n.sha || '%'
        join ai_sessions s on s.id = n.session_id
        where n.tenant_id = ${tenantId} and n.sha = any(${textArray(prefixesOf(scope.commits.shas))}) and ${sameRepository}
        on conflict do nothing`);
    } else {
      const onNamed = scope.sessionId ? sql`and n.session_id = ${scope.sessionId}` : sql``;
      await tx.execute(sql`
        insert into ai_session_links (tenant_id, session_id, commit_id, linked_by)
        select n.tenant_id, n.session_id, c.id, 'commit_sha'
        from ai_session_shas n
        join commits c on c.tenant_id = n.tenant_id and c.sha >= n.sha and c.sha < n.sha || 'g' and c.sha like n.sha || '%'
        join ai_sessions s on s.id = n.session_id
        where n.tenant_id = ${tenantId} ${onNamed} and ${sameRepository}
        on conflict do nothing`);
    }
  }

  const linkScope = scope.sessionId
    ? sql`and l.session_id = ${scope.sessionId}`
    : scope.pullRequestId
      ? sql`and prc.pull_request_id = ${scope.pullRequestId}`
      : scope.commits
        ? sql`and l.commit_id = any(${uuidArray(scope.commits.ids)})`
        : sql``;
  await tx.execute(sql`
    insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by)
    select distinct l.tenant_id, l.session_id, prc.pull_request_id, 'commit_pr'
    from ai_session_links l
    join pull_request_commits prc on prc.commit_id = l.commit_id
    where l.tenant_id = ${tenantId} and l.commit_id is not null ${linkScope}
    on conflict do nothing`);
}

/**
 * Commits ↔ pull request. The code host's webhooks do not list a PR's commits, so a commit belongs
 * to a PR when it was first pushed to the PR's head branch or is its head commit: on a PR event,
 * for that PR; on a push, for the open PRs whose head branch received it.
 */
export async function linkPullRequestCommits(tx: Executor, tenantId: string, scope: { pullRequestId: string } | { commitIds: string[]; branch: string }): Promise<void> {
  // One statement per rule: an OR across branch and sha would keep either index from being used.
  const rules: SQL[] =
    'pullRequestId' in scope
      ? [sql`pr.id = ${scope.pullRequestId} and c.branch = pr.head_branch`, sql`pr.id = ${scope.pullRequestId} and c.sha = pr.head_sha`]
      : scope.commitIds.length === 0
        ? []
        : [sql`c.id = any(${uuidArray(scope.commitIds)}) and pr.head_branch = ${scope.branch} and pr.state = 'open'`];
  for (const where of rules) {
    await tx.execute(sql`
      insert into pull_request_commits (pull_request_id, commit_id, tenant_id)
      select pr.id, c.id, pr.tenant_id
      from pull_requests pr
      join commits c on c.project_id = pr.project_id
      where pr.tenant_id = ${tenantId} and ${where}
      on conflict do nothing`);
  }
}
