import { sql } from "drizzle-orm";
const prefixesOf = (shas) => [...new Set(shas.flatMap((sha) => Array.from({ length: Math.max(0, sha.length - 6) }, (_, i) => sha.slice(0, 7 + i))))];
const textArray = (values) => sql`${`{${values.join(",")}}`}::text[]`;
const uuidArray = (ids) => sql`${`{${ids.join(",")}}`}::uuid[]`;
async function linkSessions(tx, tenantId, scope) {
  const onSession = scope.sessionId ? sql`and s.id = ${scope.sessionId}` : sql``;
  const onPr = scope.pullRequestId ? sql`and pr.id = ${scope.pullRequestId}` : sql``;
  const onCommits = scope.commits ? sql`and c.id = any(${uuidArray(scope.commits.ids)})` : sql``;
  if (!scope.commits) {
    for (const [column, kind] of [
      [sql`pr.number = s.pr_number`, "pr_number"],
      [sql`pr.head_branch = s.branch`, "branch"]
    ]) {
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
  const linkScope = scope.sessionId ? sql`and l.session_id = ${scope.sessionId}` : scope.pullRequestId ? sql`and prc.pull_request_id = ${scope.pullRequestId}` : scope.commits ? sql`and l.commit_id = any(${uuidArray(scope.commits.ids)})` : sql``;
  await tx.execute(sql`
    insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by)
    select distinct l.tenant_id, l.session_id, prc.pull_request_id, 'commit_pr'
    from ai_session_links l
    join pull_request_commits prc on prc.commit_id = l.commit_id
    where l.tenant_id = ${tenantId} and l.commit_id is not null ${linkScope}
    on conflict do nothing`);
}
async function linkPullRequestCommits(tx, tenantId, scope) {
  const rules = "pullRequestId" in scope ? [sql`pr.id = ${scope.pullRequestId} and c.branch = pr.head_branch`, sql`pr.id = ${scope.pullRequestId} and c.sha = pr.head_sha`] : scope.commitIds.length === 0 ? [] : [sql`c.id = any(${uuidArray(scope.commitIds)}) and pr.head_branch = ${scope.branch} and pr.state = 'open'`];
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
export {
  linkPullRequestCommits,
  linkSessions
};
