/**
 * The reference for `npm run bench:baseline`: one hand-written SQL statement computing the measure
 * columns of the team baseline for every enabled team × month, straight from the fact tables
 * ($1 tenant, $2 first month, $3 first month after the window). Same rules as METRICS.md.
 */
export const HAND_WRITTEN_BASELINE = `
with tm as (select id, slug from teams where tenant_id = $1 and enabled),
months as (select generate_series($2::timestamp, $3::timestamp - interval '1 month', interval '1 month') as m),
proj as (select id, owning_team_id as team from projects where tenant_id = $1),
member as (select m.person_id, m.team_id as team from team_memberships m join tm on tm.id = m.team_id where m.tenant_id = $1),
ident as (select kind, value, person_id from person_identities where tenant_id = $1),
session_person as (
  select s.id, s.started_at, i.person_id from ai_sessions s join users u on u.id = s.user_id
  left join ident i on i.kind = 'email' and i.value = lower(u.email) where s.tenant_id = $1),
pr as (
  select p.team, date_trunc('month', pr.merged_at at time zone 'UTC') as m, count(*) as prs,
    percentile_cont(0.5) within group (order by extract(epoch from pr.merged_at - pr.created_at)) as cycle,
    sum(pr.additions + pr.deletions) as ccv,
    sum(case when pr.additions + pr.deletions <= 10 then 1 when pr.additions + pr.deletions <= 50 then 2
             when pr.additions + pr.deletions <= 250 then 3 when pr.additions + pr.deletions <= 1000 then 5 else 8 end) as ceu,
    count(*) filter (where ls.pull_request_id is not null or tr.pull_request_id is not null
                      or exists (select 1 from unnest(pr.labels) l where lower(l) = 'ai-assisted')) as ai_prs
  from pull_requests pr join proj p on p.id = pr.project_id
  left join (select distinct pull_request_id from ai_session_links where tenant_id = $1 and pull_request_id is not null) ls on ls.pull_request_id = pr.id
  left join (select distinct prc.pull_request_id from pull_request_commits prc join commits c on c.id = prc.commit_id
             where prc.tenant_id = $1 and cardinality(c.ai_coauthors) > 0) tr on tr.pull_request_id = pr.id
  where pr.tenant_id = $1 and pr.merged_at >= $2::timestamptz and pr.merged_at < $3::timestamptz
  group by 1, 2),
authors as (
  select team, m, count(distinct k) as n from (
    select p.team, date_trunc('month', pr.merged_at at time zone 'UTC') as m, coalesce(i.person_id::text, 'username:' || lower(pr.author_username)) as k
    from pull_requests pr join proj p on p.id = pr.project_id
    left join ident i on i.kind = 'codehost_username' and i.value = lower(pr.author_username)
    where pr.tenant_id = $1 and pr.merged_at >= $2::timestamptz and pr.merged_at < $3::timestamptz
    union all
    select p.team, date_trunc('month', c.committed_at at time zone 'UTC'),
      coalesce(iu.person_id::text, ie.person_id::text, 'username:' || lower(c.author_username), 'email:' || lower(c.author_email))
    from commits c join proj p on p.id = c.project_id
    left join ident iu on iu.kind = 'codehost_username' and iu.value = lower(c.author_username)
    left join ident ie on ie.kind = 'email' and ie.value = lower(c.author_email)
    where c.tenant_id = $1 and c.committed_at >= $2::timestamptz and c.committed_at < $3::timestamptz) a
  group by 1, 2),
iss as (
  select p.team, date_trunc('month', i.closed_at at time zone 'UTC') as m, count(*) as closed,
    percentile_cont(0.5) within group (order by extract(epoch from i.closed_at - i.created_at)) as lead,
    percentile_cont(0.5) within group (order by case when i.type = 'incident' then extract(epoch from i.closed_at - i.created_at) end) as mttr
  from issues i join proj p on p.id = i.project_id
  where i.tenant_id = $1 and i.state = 'closed' and i.closed_at >= $2::timestamptz and i.closed_at < $3::timestamptz
  group by 1, 2),
dep as (select d.*, coalesce(d.is_production, d.environment = 'production') as prod from deployments d where d.tenant_id = $1),
caused as (
  select distinct coalesce(
    (select d.id from deployments d where d.tenant_id = $1 and d.external_id = i.metadata ->> 'causedByDeployment'
       order by (d.project_id = i.project_id) desc, d.created_at desc, d.id limit 1),
    (select d.id from deployments d where d.project_id = i.project_id and d.status = 'success' and coalesce(d.is_production, d.environment = 'production')
       and d.created_at >= i.created_at - interval '24 hours' and d.created_at <= i.created_at order by d.created_at desc, d.id limit 1)) as id
  from issues i where i.tenant_id = $1 and i.type = 'incident'),
rolled as (
  select distinct t.id from dep t join dep r on r.project_id = t.project_id and r.is_rollback
    and left(lower(r.rollback_from_sha), 7) = left(lower(t.sha), 7)
  where r.created_at > t.created_at and (starts_with(lower(t.sha), lower(r.rollback_from_sha)) or starts_with(lower(r.rollback_from_sha), lower(t.sha)))),
deploys as (
  select p.team, date_trunc('month', d.created_at at time zone 'UTC') as m,
    count(*) filter (where d.prod and d.status = 'success') as ok,
    count(*) filter (where d.prod and d.status in ('success', 'failure', 'error')) as finished,
    count(*) filter (where d.prod and (d.status in ('failure', 'error') or rolled.id is not null or caused.id is not null)) as failed
  from dep d join proj p on p.id = d.project_id
  left join rolled on rolled.id = d.id left join caused on caused.id = d.id
  where d.created_at >= $2::timestamptz and d.created_at < $3::timestamptz
  group by 1, 2),
sessions as (
  select mb.team, date_trunc('month', s.started_at at time zone 'UTC') as m, count(distinct s.id) as n, count(distinct s.person_id) as users
  from session_person s join member mb on mb.person_id = s.person_id
  where s.started_at >= $2::timestamptz and s.started_at < $3::timestamptz
  group by 1, 2),
ai_commits as (
  select mb.team, date_trunc('month', c.committed_at at time zone 'UTC') as m, count(distinct c.id) as n
  from ai_session_links l join commits c on c.id = l.commit_id join session_person s on s.id = l.session_id
  join member mb on mb.person_id = s.person_id
  where l.tenant_id = $1 and c.committed_at >= $2::timestamptz and c.committed_at < $3::timestamptz
  group by 1, 2),
seat as (
  select mb.team, g.m, count(distinct s.person_id) as n
  from seats s join member mb on mb.person_id = s.person_id
  cross join lateral generate_series(date_trunc('month', s.assigned_on::timestamp),
    date_trunc('month', coalesce(s.revoked_on, (now() at time zone 'UTC')::date)::timestamp), interval '1 month') g(m)
  where s.tenant_id = $1 and g.m >= $2::timestamp and g.m < $3::timestamp
  group by 1, 2),
survey as (
  select team_id as team, month::timestamp as m, sum(responses)::numeric / nullif(sum(invitations), 0) as rate,
    case when sum(responses) >= 3 then (sum(answer_sum)::numeric / nullif(sum(answer_count), 0) - 1) * 25 end as score
  from survey_team_months where tenant_id = $1 and month >= $2::date and month < $3::date group by 1, 2)
select tm.id as team_id, to_char(months.m, 'YYYY-MM') as month, coalesce(authors.n, 0) as active_authors,
  coalesce(iss.closed, 0) as issues_closed, coalesce(pr.prs, 0) as prs_merged, round(pr.cycle) as pr_cycle_time_p50_seconds,
  round(iss.lead) as issue_lead_time_p50_seconds, coalesce(deploys.ok, 0) as production_deploys,
  round(deploys.failed::numeric / nullif(deploys.finished, 0), 4) as change_failure_rate, round(iss.mttr) as mttr_p50_seconds,
  coalesce(pr.ceu, 0) as ceu_total, coalesce(pr.ccv, 0) as ccv_total, round(pr.ai_prs::numeric / nullif(pr.prs, 0), 4) as ai_assisted_pr_share,
  coalesce(seat.n, 0) as ai_seat_holders, coalesce(sessions.users, 0) as ai_active_users, coalesce(sessions.n, 0) as ai_sessions,
  coalesce(ai_commits.n, 0) as ai_commits, round(survey.rate, 4) as survey_response_rate, round(survey.score, 2) as team_experience_score
from tm cross join months
left join pr on pr.team = tm.id and pr.m = months.m
left join authors on authors.team = tm.id and authors.m = months.m
left join iss on iss.team = tm.id and iss.m = months.m
left join deploys on deploys.team = tm.id and deploys.m = months.m
left join sessions on sessions.team = tm.id and sessions.m = months.m
left join ai_commits on ai_commits.team = tm.id and ai_commits.m = months.m
left join seat on seat.team = tm.id and seat.m = months.m
left join survey on survey.team = tm.id and survey.m = months.m
order by tm.slug collate "C", months.m`;
