-- Issue 45 point 5 (docs/ai-measures.md): idle seats, the AI sums (lines, tokens, edits, merged
-- PRs) and ai_commits' sources. The three views are files (src/cube/sql/cube_seat_months.sql,
-- cube_ai_activity.sql, cube_ai_commits.sql), applied
-- after every versioned migration; they are created here too because the regenerated bi views
-- below read their new columns, and on a fresh database the files come later (this tag is in
-- MOVED_INTO_FILES, src/db/sqlSource.ts). ai_vendor_tool is a file as well, so it is inlined here;
-- the file's definition replaces this one right after.
CREATE OR REPLACE VIEW "cube_seat_months" AS
SELECT s.tenant_id, s.id AS seat_id, s.id::text || ':' || m::date::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key,
       s.person_id, s.tool, s.assigned_on, s.revoked_on, tm.team_id, m::date AS month,
       s.last_activity_at,
       NOT (
         COALESCE(s.last_activity_at >= (m AT TIME ZONE 'UTC') AND s.last_activity_at < ((m + interval '1 month') AT TIME ZONE 'UTC'), false)
         OR EXISTS (SELECT 1 FROM "cube_ai_sessions" a
                    WHERE a.tenant_id = s.tenant_id AND a.person_id = s.person_id
                      AND a.started_at >= (m AT TIME ZONE 'UTC') AND a.started_at < ((m + interval '1 month') AT TIME ZONE 'UTC'))
       ) AS is_idle
FROM "seats" s
CROSS JOIN LATERAL generate_series(
  date_trunc('month', s.assigned_on::timestamp),
  date_trunc('month', COALESCE(s.revoked_on, (now() AT TIME ZONE 'UTC')::date)::timestamp),
  interval '1 month') AS m
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = s.person_id;
--> statement-breakpoint
CREATE OR REPLACE VIEW "cube_ai_activity" AS
SELECT d.tenant_id, md5(d.user_key::text || ':' || d.day::text || ':' || d.tool)::uuid AS id, 'day'::text AS kind,
       (d.day::timestamp AT TIME ZONE 'UTC') AS happened_at, d.user_key, d.person_id, d.tool,
       string_agg(DISTINCT d.source, ', ' ORDER BY d.source) AS sources,
       COALESCE((SELECT array_agg(tm.team_id ORDER BY tm.team_id) FROM "team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled
                 WHERE tm.tenant_id = d.tenant_id AND tm.person_id = d.person_id), '{}'::uuid[]) AS team_ids,
       max(d.ai_lines_added) AS ai_lines_added, max(d.tokens) AS tokens,
       max(d.edits_accepted) AS edits_accepted, max(d.edits_accepted + d.edits_rejected) AS edits_offered,
       0::bigint AS merged_prs, 0::bigint AS pr_lines_added
FROM (
  SELECT td.tenant_id, td.day, td.tool, 'telemetry'::text AS source, pi.person_id,
         COALESCE(pi.person_id, md5(COALESCE('email:' || td.person_email, 'account:' || td.person_account))::uuid) AS user_key,
         td.lines_added AS ai_lines_added, td.input_tokens + td.output_tokens AS tokens,
         td.edits_accepted::bigint AS edits_accepted, td.edits_rejected::bigint AS edits_rejected
  FROM "ai_telemetry_days" td
  LEFT JOIN "person_identities" pi ON pi.tenant_id = td.tenant_id AND pi.kind = 'email' AND pi.value = td.person_email
  UNION ALL
  SELECT v.tenant_id, v.day, CASE v.source WHEN 'claude_code_analytics' THEN 'claude-code' ELSE v.source END, v.source, p.person_id,
         COALESCE(p.person_id, md5(COALESCE('email:' || v.person_email, 'login:' || v.person_login))::uuid),
         v.lines_added, v.input_tokens + v.output_tokens, v.edits_accepted::bigint, v.edits_rejected::bigint
  FROM "ai_vendor_days" v
  LEFT JOIN "person_identities" pe ON pe.tenant_id = v.tenant_id AND pe.kind = 'email' AND pe.value = v.person_email
  LEFT JOIN "person_identities" pl ON pl.tenant_id = v.tenant_id AND pl.kind = 'codehost_username' AND pl.value = v.person_login
  CROSS JOIN LATERAL (SELECT COALESCE(pe.person_id, pl.person_id) AS person_id) p
  WHERE v.person_email IS NOT NULL OR v.person_login IS NOT NULL
) d
GROUP BY d.tenant_id, d.user_key, d.person_id, d.day, d.tool
UNION ALL
SELECT pr.tenant_id, pr.id, 'pr'::text, pr.merged_at, NULL::uuid, NULL::uuid, NULL::text, 'code host'::text,
       CASE WHEN pr.team_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[pr.team_id] END,
       0::bigint, 0::bigint, 0::bigint, 0::bigint, 1::bigint, pr.additions::bigint
FROM "cube_pull_requests" pr
WHERE pr.is_merged;
--> statement-breakpoint
CREATE OR REPLACE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, e.link_id, e.key || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       e.session_id, e.person_id, tm.team_id,
       c.sha,
       (SELECT p.project_key FROM "projects" p WHERE p.id = c.project_id) AS project_key,
       (SELECT string_agg(DISTINCT x.tool, ', ' ORDER BY x.tool) FROM (
          SELECT a.tool FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT CASE vc.source WHEN 'claude_code_analytics' THEN 'claude-code' ELSE vc.source END FROM "ai_vendor_commits" vc
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0) x) AS ai_tools,
       (SELECT string_agg(al.session_id::text, ', ' ORDER BY al.session_id::text)
        FROM "ai_session_links" al
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_session_ids,
       (SELECT string_agg(DISTINCT x.key::text, ', ' ORDER BY x.key::text) FROM (
          SELECT COALESCE(api.person_id, a.user_id, md5(COALESCE('email:' || a.person_email, 'account:' || a.person_account))::uuid) AS key
          FROM "ai_session_links" al
          JOIN "ai_sessions" a ON a.id = al.session_id
          LEFT JOIN "users" au ON au.id = a.user_id
          LEFT JOIN "person_identities" api ON api.tenant_id = a.tenant_id AND api.kind = 'email' AND api.value = lower(COALESCE(au.email, a.person_email))
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT COALESCE(vpi.person_id, md5('email:' || vc.person_email)::uuid)
          FROM "ai_vendor_commits" vc
          LEFT JOIN "person_identities" vpi ON vpi.tenant_id = vc.tenant_id AND vpi.kind = 'email' AND vpi.value = vc.person_email
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0 AND vc.person_email IS NOT NULL) x) AS ai_user_keys,
       -- Which sources link the commit (docs/ai-measures.md): each session's (upload, telemetry) and
       -- each vendor reporting AI lines in it (cursor), sorted, joined by ", ".
       (SELECT string_agg(DISTINCT x.source, ', ' ORDER BY x.source) FROM (
          SELECT a.source FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT vc.source FROM "ai_vendor_commits" vc
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0) x) AS ai_sources
FROM (
  SELECT l.commit_id, l.id AS link_id, l.id::text AS key, l.session_id, pi.person_id
  FROM "ai_session_links" l
  JOIN "ai_sessions" s ON s.id = l.session_id
  LEFT JOIN "users" u ON u.id = s.user_id
  LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
  UNION ALL
  SELECT vcm.id AS commit_id, NULL::uuid AS link_id, 'vendor:' || v.id::text AS key, NULL::uuid AS session_id, vpi.person_id
  FROM "ai_vendor_commits" v
  JOIN "commits" vcm ON vcm.tenant_id = v.tenant_id AND vcm.sha = v.sha
  LEFT JOIN "person_identities" vpi ON vpi.tenant_id = v.tenant_id AND vpi.kind = 'email' AND vpi.value = v.person_email
  WHERE v.ai_lines_added > 0
) e
JOIN "commits" c ON c.id = e.commit_id
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = c.tenant_id AND tm.person_id = e.person_id;
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."seats";
--> statement-breakpoint
CREATE VIEW "bi"."ai_commits" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.committed_at AS "committed_at",
  s.id AS "id",
  s.sha AS "sha",
  s.project_key AS "project_key",
  s.ai_tools AS "ai_tools",
  s.ai_session_ids AS "ai_session_ids",
  s.ai_user_keys AS "ai_user_keys",
  s.ai_sources AS "sources",
  s.id AS "ai_commits_value"
FROM "public"."cube_ai_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_commits" IS 'Commits that an AI session names, or in which a vendor reports AI-written lines (Cursor AI Code Tracking, matched by sha), counted for every enabled team of the session''s (or the vendor record''s) person. Month = month of the commit time.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."row_key" IS 'Link × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."committed_at" IS 'Commit time; group ai_commits by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."id" IS 'The commit (UUID); ai_commits counts these, so a commit named by two sessions, or counted for two teams, is one commit.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."sha" IS 'The commit''s sha as the code host sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."project_key" IS 'The repository (project key) the commit was pushed to.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_tools" IS 'The tools of every AI session that names the commit and of every vendor reporting AI lines in it, sorted and joined by ", " (the same for each of the commit''s rows).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_session_ids" IS 'Every AI session that names the commit (UUIDs, sorted, joined by ", ").';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_user_keys" IS 'For every AI session that names the commit, the person whose e-mail identity matches the uploader, or the uploading user when none matches; for every vendor record of it, the person of its e-mail (as ai_sessions.user_key; UUIDs, sorted, joined by ", ").';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."sources" IS 'Every source that links the commit: each naming session''s (upload, telemetry) and each vendor reporting AI lines in it (cursor), sorted, joined by ", " (the same for each of the commit''s rows).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_commits_value" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member or reported by a vendor as containing AI-written lines.';
--> statement-breakpoint
-- bi.deployments and bi.team_month as the models have them since 0068 (0070 recreated them
-- without the rework columns; test/bi/access.test.ts "holds the views").
DROP VIEW IF EXISTS "bi"."team_month";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."deployments";
--> statement-breakpoint
CREATE VIEW "bi"."deployments" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.environment AS "environment",
  s.status AS "status",
  s.is_production AS "is_production",
  s.is_failed AS "is_failed",
  s.rolled_back AS "rolled_back",
  s.created_at AS "created_at",
  s.is_successful_production AS "is_successful_production",
  s.is_finished_production AS "is_finished_production",
  s.is_recovered AS "is_recovered",
  s.caused_incident AS "caused_incident",
  s.external_id AS "external_id",
  s.sha AS "sha",
  s.project_key AS "project_key",
  s.rolled_back_by AS "rolled_back_by",
  s.rolled_back_at AS "rolled_back_at",
  s.caused_incident_key AS "caused_incident_key",
  s.recovered_at AS "recovered_at",
  s.recovered_by AS "recovered_by",
  s.recovery_seconds AS "recovery_seconds",
  s.replaced_by AS "replaced_by",
  s.is_replaced AS "is_replaced",
  s.any_source_successful_production AS "any_source_successful_production",
  s.any_source_finished_production AS "any_source_finished_production",
  s.any_source_failed AS "any_source_failed",
  s.is_rework AS "is_rework",
  s.rework_because AS "rework_because",
  COALESCE((s.any_source_successful_production AND NOT s.is_replaced), false) AS "in_production_deploys",
  COALESCE((s.any_source_finished_production AND NOT s.is_replaced), false) AS "in_finished_production_deploys",
  COALESCE((s.any_source_failed AND NOT s.is_replaced), false) AS "in_failed_production_deploys",
  COALESCE((s.is_recovered), false) AS "in_recovered_deploys",
  COALESCE((s.is_rework), false) AS "in_rework_deploys"
FROM "public"."cube_deployments" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."deployments" IS 'Deployments of the tenant''s projects, attributed to the team owning the project. Production = isProduction, or when absent environment production. Failed = production and (status failure or error, or rolled back by a later rollback of the same project naming its sha, or the cause of an incident). Month = month of createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."id" IS 'Deployment (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."environment" IS 'Target environment as sent. A deployment is production when is_production is true, or when it is absent and this is production.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."status" IS 'Last reported status. Finished = success, failure or error; failed = failure or error (or rolled back, or caused an incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_production" IS 'Production deployment: isProduction, or when absent environment = production.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_failed" IS 'Failed production deployment (status failure or error, rolled back later, or the cause of an incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back" IS 'A later rollback deployment of the same project names this deployment''s sha.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."created_at" IS 'Group every deployment measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_successful_production" IS 'Production deployment with status success; the rows production_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_finished_production" IS 'Production deployment with status success, failure or error; the rows finished_production_deploys counts (change_failure_rate''s denominator).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_recovered" IS 'Failed production deployment followed by a successful, not rolled back, production deployment of the same project; the rows recovered_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."caused_incident" IS 'The deployment is the cause of an incident (see incidents.caused_by_deployment_id).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."external_id" IS 'The deployment''s externalId as the source sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."sha" IS 'Commit sha the deployment deployed, as sent.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."project_key" IS 'Key of the deployment''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back_by" IS 'externalId of the first later rollback of the same project naming this deployment''s sha; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back_at" IS 'Time (createdAt) of that rollback; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."caused_incident_key" IS 'externalId of the first incident this deployment caused; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovered_at" IS 'Time of the next successful, not rolled back, production deployment of the same project after a failed one; empty when not failed or not (yet) recovered.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovered_by" IS 'externalId of that recovering deployment; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovery_seconds" IS 'Seconds from this failed deployment to its recovery; the value failed_deployment_recovery_time_p50_seconds takes the median of. Empty when not recovered.
failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."replaced_by" IS 'The deployment source whose period this row falls in, when it is not the row''s own (webhook, deployments, workflow_runs, releases): the row is stored and counted in no measure; switching back restores it. Empty on a counted row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_replaced" IS 'The row falls in the period of its project''s current deployment source, another one (replaced_by); no measure counts it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_successful_production" IS 'Production deployment with status success, whether or not replaced by another source; production_deploys counts those not replaced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_finished_production" IS 'Production deployment with status success, failure or error, whether or not replaced by another source; finished_production_deploys counts those not replaced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_failed" IS 'Failed production deployment (status failure or error, rolled back later, or the cause of an incident), whether or not replaced by another source; failed_production_deploys counts those not replaced (is_failed).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_rework" IS 'A finished production deployment that is a rollback (isRollback), or the first successful, not rolled back, production deployment after a failed one of the same project (a recovery, as recovered_by); the rows rework_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rework_because" IS 'Why the deployment is rework: rollback from <sha>, and/or recovery after <externalId of the failed deployments it recovered> failed; empty when not rework.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_production_deploys" IS 'production_deploys: Successful production deployments created in the period (of each project''s source for that period; rows replaced by another source are not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_finished_production_deploys" IS 'finished_production_deploys: Production deployments with status success, failure or error created in the period; the denominator of change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_failed_production_deploys" IS 'failed_production_deploys: Production deployments created in the period that failed (status failure or error, rolled back later, or caused an incident); each counts once.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_recovered_deploys" IS 'recovered_deploys: Failed production deployments followed by a successful, not rolled back, production deployment of the same project; the n of failed_deployment_recovery_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_rework_deploys" IS 'rework_deploys: Finished production deployments created in the period that are a rollback or the recovery of a failed one (METRICS.md Rework); the numerator of rework_rate.';
--> statement-breakpoint
CREATE VIEW "bi"."team_month" WITH (security_barrier = true) AS
WITH
f0 AS (
SELECT
      "author_activity".team_id "author_activity__team_id", date_trunc('month', ("author_activity".happened_at::timestamptz AT TIME ZONE 'UTC')) "author_activity__happened_at_month", count(distinct "author_activity".author_key) "author_activity__active_authors"
    FROM
      (SELECT * FROM cube_author_activity WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "author_activity"  GROUP BY 1, 2
),
f1 AS (
SELECT
      "projects".owning_team_id "projects__owning_team_id", date_trunc('month', ("issues".closed_at::timestamptz AT TIME ZONE 'UTC')) "issues__closed_at_month", count(CASE WHEN ("issues".is_closed) THEN "issues".id END) "issues__issues_closed", percentile_cont(0.5) WITHIN GROUP (ORDER BY "issues".lead_time_seconds) "issues__issue_lead_time_p50_seconds"
    FROM
      (SELECT * FROM cube_issues WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "issues"
LEFT JOIN (SELECT * FROM projects WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "projects" ON "issues".project_id = "projects".id  GROUP BY 1, 2
),
f2 AS (
SELECT
      "pull_requests".team_id "pull_requests__team_id", date_trunc('month', ("pull_requests".merged_at::timestamptz AT TIME ZONE 'UTC')) "pull_requests__merged_at_month", count(CASE WHEN ("pull_requests".is_merged) THEN "pull_requests".id END) "pull_requests__prs_merged", percentile_cont(0.5) WITHIN GROUP (ORDER BY "pull_requests".cycle_time_seconds) "pull_requests__pr_cycle_time_p50_seconds", sum(CASE WHEN "pull_requests".is_merged THEN "pull_requests".change_effort_units END) "pull_requests__ceu_total", sum(CASE WHEN "pull_requests".is_merged THEN "pull_requests".change_volume END) "pull_requests__ccv_total", count(CASE WHEN ("pull_requests".is_merged AND "pull_requests".ai_assisted) THEN "pull_requests".id END)::numeric / NULLIF(count(CASE WHEN ("pull_requests".is_merged) THEN "pull_requests".id END), 0) "pull_requests__ai_assisted_pr_share"
    FROM
      (SELECT * FROM cube_pull_requests WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "pull_requests"  GROUP BY 1, 2
),
f3 AS (
SELECT
      "deployments".team_id "deployments__team_id", date_trunc('month', ("deployments".created_at::timestamptz AT TIME ZONE 'UTC')) "deployments__created_at_month", count(CASE WHEN ("deployments".any_source_successful_production AND NOT "deployments".is_replaced) THEN "deployments".id END) "deployments__production_deploys", count(CASE WHEN ("deployments".any_source_failed AND NOT "deployments".is_replaced) THEN "deployments".id END)::numeric / NULLIF(count(CASE WHEN ("deployments".any_source_finished_production AND NOT "deployments".is_replaced) THEN "deployments".id END), 0) "deployments__change_failure_rate"
    FROM
      (SELECT * FROM cube_deployments WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "deployments"  GROUP BY 1, 2
),
f4 AS (
SELECT
      "incidents".team_id "incidents__team_id", date_trunc('month', ("incidents".closed_at::timestamptz AT TIME ZONE 'UTC')) "incidents__closed_at_month", percentile_cont(0.5) WITHIN GROUP (ORDER BY "incidents".restore_seconds) "incidents__mttr_p50_seconds"
    FROM
      (SELECT * FROM cube_incidents WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "incidents"  GROUP BY 1, 2
),
f5 AS (
SELECT
      "seats".team_id "seats__team_id", date_trunc('month', (("seats".month::timestamp AT TIME ZONE 'UTC')::timestamptz AT TIME ZONE 'UTC')) "seats__month_month", count(distinct "seats".person_id) "seats__ai_seat_holders"
    FROM
      (SELECT * FROM cube_seat_months WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "seats"  GROUP BY 1, 2
),
f6 AS (
SELECT
      "ai_sessions".team_id "ai_sessions__team_id", date_trunc('month', ("ai_sessions".started_at::timestamptz AT TIME ZONE 'UTC')) "ai_sessions__started_at_month", count(distinct "ai_sessions".user_key) "ai_sessions__ai_active_users", count(distinct "ai_sessions".id) "ai_sessions__ai_sessions"
    FROM
      (SELECT * FROM cube_ai_sessions WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "ai_sessions"  GROUP BY 1, 2
),
f7 AS (
SELECT
      "ai_commits".team_id "ai_commits__team_id", date_trunc('month', ("ai_commits".committed_at::timestamptz AT TIME ZONE 'UTC')) "ai_commits__committed_at_month", count(distinct "ai_commits".id) "ai_commits__ai_commits"
    FROM
      (SELECT * FROM cube_ai_commits WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "ai_commits"  GROUP BY 1, 2
),
f8 AS (
SELECT
      "survey_responses".team_id "survey_responses__team_id", date_trunc('month', (("survey_responses".month::timestamp AT TIME ZONE 'UTC')::timestamptz AT TIME ZONE 'UTC')) "survey_responses__month_month", SUM("survey_responses".responses)::numeric / NULLIF(SUM("survey_responses".invitations), 0) "survey_responses__survey_response_rate", CASE WHEN SUM("survey_responses".responses) >= 3 THEN (SUM("survey_responses".answer_sum)::numeric / NULLIF(SUM("survey_responses".answer_count), 0) - 1) * 25 END "survey_responses__team_experience_score"
    FROM
      (SELECT * FROM survey_team_months WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "survey_responses"  GROUP BY 1, 2
),
hc AS (
SELECT
      "memberships".team_id "memberships__team_id", count(CASE WHEN ("memberships".membership_source = 'register') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__register_headcount", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'employee') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__internal_headcount", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'supplier') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__external_headcount"
    FROM
      (SELECT * FROM team_memberships WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "memberships"
LEFT JOIN (SELECT * FROM people WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "people" ON "memberships".person_id = "people".id  GROUP BY 1
),
sup_rows AS (
SELECT
      "memberships".team_id "memberships__team_id", "people".supplier_name "people__supplier_name", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'supplier') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__external_headcount"
    FROM
      (SELECT * FROM team_memberships WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "memberships"
LEFT JOIN (SELECT * FROM people WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "people" ON "memberships".person_id = "people".id  WHERE ("memberships".membership_source = 'register') AND ("people".employment_type = 'supplier') GROUP BY 1, 2
),
sup AS (SELECT team, jsonb_object_agg(name, n) AS by_supplier FROM (SELECT "memberships__team_id" AS team, COALESCE("people__supplier_name", 'unknown') AS name, sum("memberships__external_headcount")::bigint AS n FROM sup_rows WHERE "memberships__external_headcount" <> 0 GROUP BY 1, 2) s GROUP BY team),
teams AS (SELECT t.id, t.slug, t.name, t.external_ref, t.cost_centre_code, t.org_unit_id, o.slug AS org_unit_slug, t.supplier_name, t.delivery_model, t.location_country FROM "public"."teams" t LEFT JOIN "public"."org_units" o ON o.id = t.org_unit_id AND o.tenant_id = t.tenant_id WHERE t.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms)) AND t.enabled),
months AS (SELECT generate_series(min(m), max(m), interval '1 month') AS m FROM (
SELECT "author_activity__happened_at_month" AS m FROM f0
UNION ALL
SELECT "issues__closed_at_month" AS m FROM f1
UNION ALL
SELECT "pull_requests__merged_at_month" AS m FROM f2
UNION ALL
SELECT "deployments__created_at_month" AS m FROM f3
UNION ALL
SELECT "incidents__closed_at_month" AS m FROM f4
UNION ALL
SELECT "seats__month_month" AS m FROM f5
UNION ALL
SELECT "ai_sessions__started_at_month" AS m FROM f6
UNION ALL
SELECT "ai_commits__committed_at_month" AS m FROM f7
UNION ALL
SELECT "survey_responses__month_month" AS m FROM f8
UNION ALL
SELECT date_trunc('month', now() AT TIME ZONE 'UTC')
) b WHERE m IS NOT NULL),
rows AS (SELECT
  t.id AS "team_id",
  to_char(mo.m, 'YYYY-MM') AS "month",
  t.slug AS "team_slug",
  t.name AS "team_name",
  t.external_ref AS "team_external_ref",
  t.cost_centre_code AS "cost_centre_code",
  t.org_unit_id AS "org_unit_id",
  t.org_unit_slug AS "org_unit_slug",
  t.supplier_name AS "supplier_name",
  t.delivery_model AS "delivery_model",
  t.location_country AS "location_country",
  COALESCE(hc."memberships__register_headcount", 0)::bigint AS "headcount",
  COALESCE(hc."memberships__internal_headcount", 0)::bigint AS "internal_headcount",
  COALESCE(hc."memberships__external_headcount", 0)::bigint AS "external_headcount",
  COALESCE(sup.by_supplier, '{}'::jsonb) AS "headcount_by_supplier",
  COALESCE((floor((f0."author_activity__active_authors")::float8) + CASE WHEN ((f0."author_activity__active_authors")::float8) - floor((f0."author_activity__active_authors")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "active_authors",
  COALESCE((floor((f1."issues__issues_closed")::float8) + CASE WHEN ((f1."issues__issues_closed")::float8) - floor((f1."issues__issues_closed")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "issues_closed",
  COALESCE((floor((f2."pull_requests__prs_merged")::float8) + CASE WHEN ((f2."pull_requests__prs_merged")::float8) - floor((f2."pull_requests__prs_merged")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "prs_merged",
  (floor((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) + CASE WHEN ((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) - floor((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "pr_cycle_time_p50_seconds",
  (floor((f1."issues__issue_lead_time_p50_seconds")::float8) + CASE WHEN ((f1."issues__issue_lead_time_p50_seconds")::float8) - floor((f1."issues__issue_lead_time_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "issue_lead_time_p50_seconds",
  COALESCE((floor((f3."deployments__production_deploys")::float8) + CASE WHEN ((f3."deployments__production_deploys")::float8) - floor((f3."deployments__production_deploys")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "production_deploys",
  ((floor((f3."deployments__change_failure_rate")::float8 * 10000) + CASE WHEN ((f3."deployments__change_failure_rate")::float8 * 10000) - floor((f3."deployments__change_failure_rate")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "change_failure_rate",
  (floor((f4."incidents__mttr_p50_seconds")::float8) + CASE WHEN ((f4."incidents__mttr_p50_seconds")::float8) - floor((f4."incidents__mttr_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "mttr_p50_seconds",
  COALESCE((floor((f2."pull_requests__ceu_total")::float8) + CASE WHEN ((f2."pull_requests__ceu_total")::float8) - floor((f2."pull_requests__ceu_total")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ceu_total",
  COALESCE((floor((f2."pull_requests__ccv_total")::float8) + CASE WHEN ((f2."pull_requests__ccv_total")::float8) - floor((f2."pull_requests__ccv_total")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ccv_total",
  ((floor((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) + CASE WHEN ((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) - floor((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "ai_assisted_pr_share",
  COALESCE((floor((f5."seats__ai_seat_holders")::float8) + CASE WHEN ((f5."seats__ai_seat_holders")::float8) - floor((f5."seats__ai_seat_holders")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_seat_holders",
  COALESCE((floor((f6."ai_sessions__ai_active_users")::float8) + CASE WHEN ((f6."ai_sessions__ai_active_users")::float8) - floor((f6."ai_sessions__ai_active_users")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_active_users",
  COALESCE((floor((f6."ai_sessions__ai_sessions")::float8) + CASE WHEN ((f6."ai_sessions__ai_sessions")::float8) - floor((f6."ai_sessions__ai_sessions")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_sessions",
  COALESCE((floor((f7."ai_commits__ai_commits")::float8) + CASE WHEN ((f7."ai_commits__ai_commits")::float8) - floor((f7."ai_commits__ai_commits")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_commits",
  ((floor((f8."survey_responses__survey_response_rate")::float8 * 10000) + CASE WHEN ((f8."survey_responses__survey_response_rate")::float8 * 10000) - floor((f8."survey_responses__survey_response_rate")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "survey_response_rate",
  ((floor((f8."survey_responses__team_experience_score")::float8 * 100) + CASE WHEN ((f8."survey_responses__team_experience_score")::float8 * 100) - floor((f8."survey_responses__team_experience_score")::float8 * 100) >= 0.5 THEN 1 ELSE 0 END) / 100) AS "team_experience_score",
  mo.m::date AS "month_start"
FROM teams t CROSS JOIN months mo
LEFT JOIN hc ON hc."memberships__team_id" = t.id
LEFT JOIN sup ON sup.team = t.id
LEFT JOIN f0 ON f0."author_activity__team_id" = t.id AND f0."author_activity__happened_at_month" = mo.m
LEFT JOIN f1 ON f1."projects__owning_team_id" = t.id AND f1."issues__closed_at_month" = mo.m
LEFT JOIN f2 ON f2."pull_requests__team_id" = t.id AND f2."pull_requests__merged_at_month" = mo.m
LEFT JOIN f3 ON f3."deployments__team_id" = t.id AND f3."deployments__created_at_month" = mo.m
LEFT JOIN f4 ON f4."incidents__team_id" = t.id AND f4."incidents__closed_at_month" = mo.m
LEFT JOIN f5 ON f5."seats__team_id" = t.id AND f5."seats__month_month" = mo.m
LEFT JOIN f6 ON f6."ai_sessions__team_id" = t.id AND f6."ai_sessions__started_at_month" = mo.m
LEFT JOIN f7 ON f7."ai_commits__team_id" = t.id AND f7."ai_commits__committed_at_month" = mo.m
LEFT JOIN f8 ON f8."survey_responses__team_id" = t.id AND f8."survey_responses__month_month" = mo.m)
SELECT
  r."team_id",
  r."month",
  r."team_slug",
  r."team_name",
  r."team_external_ref",
  r."cost_centre_code",
  r."org_unit_id",
  r."org_unit_slug",
  r."supplier_name",
  r."delivery_model",
  r."location_country",
  r."headcount",
  r."internal_headcount",
  r."external_headcount",
  r."headcount_by_supplier",
  r."active_authors",
  r."issues_closed",
  r."prs_merged",
  r."pr_cycle_time_p50_seconds",
  r."issue_lead_time_p50_seconds",
  r."production_deploys",
  r."change_failure_rate",
  r."mttr_p50_seconds",
  r."ceu_total",
  r."ccv_total",
  r."ai_assisted_pr_share",
  r."ai_seat_holders",
  r."ai_active_users",
  r."ai_sessions",
  r."ai_commits",
  r."survey_response_rate",
  r."team_experience_score",
  (SELECT CASE WHEN c.n > 0 THEN (floor((c.s / c.n) * 100) + CASE WHEN ((c.s / c.n) * 100) - floor((c.s / c.n) * 100) >= 0.5 THEN 1 ELSE 0 END) / 100 END FROM (SELECT (COALESCE(a.adoption, 0) + COALESCE(a.delivery, 0)) + COALESCE(a.perception, 0) AS s, ((a.adoption IS NOT NULL)::int + (a.delivery IS NOT NULL)::int + (a.perception IS NOT NULL)::int)::float8 AS n) c) AS "aiva_light_overall",
  NULLIF(concat_ws('+', CASE WHEN a.adoption IS NOT NULL THEN 'adoption' END, CASE WHEN a.delivery IS NOT NULL THEN 'delivery' END, CASE WHEN a.perception IS NOT NULL THEN 'perception' END), '') AS "aiva_scope",
  r."month_start"
FROM rows r
CROSS JOIN LATERAL (SELECT CASE WHEN r.headcount > 0 THEN LEAST((r.ai_active_users::float8 / r.headcount::float8) * 100, 100) END AS adoption, r.ai_assisted_pr_share * 100 AS delivery, r.team_experience_score AS perception) a
ORDER BY r.team_slug COLLATE "C", r.month;
--> statement-breakpoint
COMMENT ON VIEW "bi"."team_month" IS 'One row per enabled team and month with the 34 team-baseline columns, equal to the team-baseline export (METRICS.md). Months run from the first month with any fact of the tenant to the current month (UTC); filter on month (YYYY-MM) or month_start.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."month" IS 'Calendar month, YYYY-MM (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_slug" IS 'Team slug (the rows are ordered by it, then by month).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_name" IS 'Team name.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_external_ref" IS 'Team reference in the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."cost_centre_code" IS 'Cost centre code from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."org_unit_id" IS 'Organisation unit (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."org_unit_slug" IS 'Organisation unit slug.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."supplier_name" IS 'Supplier delivering the team, from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."delivery_model" IS 'Delivery model from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."location_country" IS 'Country from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."headcount" IS 'register_headcount: Members the last register import left in the team (no history is kept); the team-baseline export''s headcount. Memberships added by hand are not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."internal_headcount" IS 'internal_headcount: Register members with employment type employee; the export''s internal_headcount. Contractors and unknown count only in register_headcount.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."external_headcount" IS 'external_headcount: Register members with employment type supplier; the export''s external_headcount (by supplier with people.supplier_name).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."headcount_by_supplier" IS 'Supplier members by supplier name (unknown when the register names none), a JSON object; no history is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."active_authors" IS 'active_authors: Distinct authors of PRs merged or commits made in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."issues_closed" IS 'issues_closed: Issues closed (state closed) with closedAt in the period. Also the n of issue_lead_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."pr_cycle_time_p50_seconds" IS 'pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."issue_lead_time_p50_seconds" IS 'issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."production_deploys" IS 'production_deploys: Successful production deployments created in the period (of each project''s source for that period; rows replaced by another source are not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."change_failure_rate" IS 'change_failure_rate: DORA change failure rate, failed ÷ finished production deployments created in the period (0–1); empty when there is no finished production deployment (always so for a team without a deployment source).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."mttr_p50_seconds" IS 'mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ceu_total" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ccv_total" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_assisted_pr_share" IS 'ai_assisted_pr_share: AI-assisted PRs merged ÷ PRs merged in the period (0–1); empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_seat_holders" IS 'ai_seat_holders: People holding an AI-tool seat at any time in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_active_users" IS 'ai_active_users: People (or, unmatched, uploading users or reported e-mails and logins) with at least one AI session started, or a telemetry or vendor-report day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_sessions" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_commits" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member or reported by a vendor as containing AI-written lines.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."survey_response_rate" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_experience_score" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."aiva_light_overall" IS 'AI value assessment (light), 0-100: the mean of the components with data in the month (adoption, delivery, perception).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."aiva_scope" IS 'The components of aiva_light_overall, joined by + in that order (adoption+delivery+perception, adoption+delivery, ...).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."month_start" IS 'The month as a date (its first day), for BI tools that group by time. Not an export column.';
--> statement-breakpoint
CREATE VIEW "bi"."seats" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.person_id AS "person_id",
  s.tool AS "tool",
  s.seat_id AS "seat_id",
  s.last_activity_at AS "last_activity_at",
  s.is_idle AS "is_idle",
  ((s.month::timestamp AT TIME ZONE 'UTC')) AS "month",
  s.person_id AS "ai_seat_holders_value",
  s.seat_id AS "seats_held_value",
  COALESCE((s.is_idle), false) AS "in_idle_seats",
  s.seat_id AS "idle_seats_value"
FROM "public"."cube_seat_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."seats" IS 'AI-tool seats by month held (a seat counts in every month it is held on at least one day, from assigned_on to revoked_on or today), counted for every enabled team of the holder.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."row_key" IS 'Seat × month × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."team_id" IS 'Team of the seat holder (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."person_id" IS 'The seat holder (UUID); ai_seat_holders counts these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."tool" IS 'AI tool of the seat, as imported.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."seat_id" IS 'The seat (UUID); seats_held and idle_seats count these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."last_activity_at" IS 'The vendor''s last activity of the seat (Copilot''s seat list); empty when no vendor said.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."is_idle" IS 'No activity of the seat in the month held, neither the vendor''s last activity nor any AI activity of its holder that ai_active_users counts (docs/ai-measures.md).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."month" IS 'Month the seat was held on at least one day; group ai_seat_holders by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."ai_seat_holders_value" IS 'ai_seat_holders: People holding an AI-tool seat at any time in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."seats_held_value" IS 'seats_held: Seats held at any time in the period (a person with two tools holds two); the seat holders'' list gives it per person.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."in_idle_seats" IS 'idle_seats: Seats held in the period with no activity in a month of it (neither the vendor''s last activity of the seat nor any AI activity of its holder); over a window of several months, a seat idle in any one of them.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."idle_seats_value" IS 'idle_seats: Seats held in the period with no activity in a month of it (neither the vendor''s last activity of the seat nor any AI activity of its holder); over a window of several months, a seat idle in any one of them.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_activity" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.kind AS "kind",
  s.happened_at AS "happened_at",
  s.user_key AS "user_key",
  s.tool AS "tool",
  s.sources AS "sources",
  s.ai_lines_added AS "ai_lines_added_value",
  s.pr_lines_added AS "merged_pr_lines_added_value",
  s.tokens AS "ai_tool_tokens_value",
  s.merged_prs AS "merged_prs_value",
  s.edits_accepted AS "edits_accepted_value",
  s.edits_offered AS "edits_offered_value"
FROM "public"."cube_ai_activity" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_activity" IS 'The amounts AI coding tools report per person and day (telemetry and the vendors'' daily reports: AI-written lines, tokens, edits offered and accepted), one row per person, day and tool whatever its sources (each amount the greatest any source reports), beside the merged pull requests they are divided by. A day row counts for every enabled team of its person; a PR row for its project''s owning team. docs/ai-measures.md.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."id" IS 'A person-day-tool (a digest of person, day and tool) or a merged pull request (its id; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."kind" IS 'day (a person''s AI activity on a day with one tool) or pr (a merged pull request).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."happened_at" IS 'The day (midnight UTC) of a day row, the merge time of a PR row; group every measure of the cube by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."user_key" IS 'As ai_sessions.user_key (a person, or the digest of an unmatched e-mail or login); empty on a PR row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."tool" IS 'The AI tool of a day row (claude-code, codex, copilot, cursor, …).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."sources" IS 'Every source that reported the day (telemetry, claude_code_analytics, copilot, cursor), sorted, joined by ", "; code host on a PR row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."ai_lines_added_value" IS 'ai_lines_added: Lines added by AI tools in the period as the sources report them (telemetry lines_of_code added; Claude Code Analytics lines added; Copilot and Cursor accepted lines), per person, day and tool the greatest any source reports.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."merged_pr_lines_added_value" IS 'merged_pr_lines_added: Added lines of the pull requests merged in the period (the code host''s additions); the denominator of ai_added_line_share.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."ai_tool_tokens_value" IS 'ai_tool_tokens: Input plus output tokens the AI coding tools report for the period (telemetry token.usage, the vendors'' daily reports; cache tokens not counted), per person, day and tool the greatest any source reports. Tokens, never money.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."merged_prs_value" IS 'merged_prs: Pull requests merged in the period (as pull_requests.prs_merged); the denominator of tokens_per_merged_pr.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."edits_accepted_value" IS 'edits_accepted: Edits (Claude Code code_edit_tool decisions, Copilot and Cursor suggestions) accepted in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."edits_offered_value" IS 'edits_offered: Edits offered in the period, accepted plus rejected; the denominator of edit_acceptance_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."source" IS 'Where the row came from, upload (POST /api/sessions), telemetry (the tool''s OpenTelemetry, a session or a person-day), or a vendor''s daily report (claude_code_analytics, copilot, cursor; a person-day).
sources: Every source of the rows counted (upload, telemetry, claude_code_analytics, copilot, cursor), sorted, joined by ", "; a person active through two sources on a day is one active user, and this names both.';
