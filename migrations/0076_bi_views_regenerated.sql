-- bi views regenerated from the models after the merges of 2026-11-29 (second round: PR phases and reviews, rework, replaced rows, p90 measures, vendor reports, the median project's rate, AI activity measures): every view, as `npx tsx tools/bi/generate.ts --replace` writes them.
DROP VIEW IF EXISTS "bi"."ai_activity";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_sessions";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_usage";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."author_activity";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."change_lead_times";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."deployments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."incidents";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."issues";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."memberships";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."people";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."projects";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_request_reviews";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_requests";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."seats";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."session_assessments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."survey_responses";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."survey_results";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."team_months";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."teams";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."team_month";
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
CREATE VIEW "bi"."ai_sessions" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.id AS "id",
  s.user_key AS "user_key",
  ((s.person_id IS NOT NULL)) AS "person_matched",
  s.source AS "source",
  s.tool AS "tool",
  s.model AS "model",
  s.started_at AS "started_at",
  s.ended_at AS "ended_at",
  s.id AS "ai_sessions_value",
  s.user_key AS "ai_active_users_value"
FROM "public"."cube_ai_sessions" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_sessions" IS 'AI coding sessions, uploaded by users or built from the tools'' OpenTelemetry, and the days of activity of a person from telemetry or a vendor''s daily report (Claude Code Analytics, Copilot, Cursor; rows without a session id, which ai_sessions does not count and ai_active_users does). A row belongs to the person whose e-mail identity matches the uploader, the telemetry''s user.email or the report''s e-mail, or whose code-host username matches the report''s login (Copilot), and counts for every enabled team of that person (a person on two teams counts in both). Month = month the session started, or of the day.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."row_key" IS 'Session × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."team_id" IS 'Team of the session''s person (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."id" IS 'The session (UUID); ai_sessions counts these, one per session however many teams its person is on. Empty on a person-day row (telemetry or vendor report).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."user_key" IS 'The person whose identity matches the uploader, the telemetry''s user.email or the vendor report''s e-mail or login; when none matches, the uploading user, or a digest of the e-mail (or login) (UUID); ai_active_users counts these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."person_matched" IS 'Whether the uploader''s, the telemetry''s or the vendor report''s e-mail (or login) matched a person of the register (user_key is then a person).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."source" IS 'Where the row came from, upload (POST /api/sessions), telemetry (the tool''s OpenTelemetry, a session or a person-day), or a vendor''s daily report (claude_code_analytics, copilot, cursor; a person-day).
sources: Every source of the rows counted (upload, telemetry, claude_code_analytics, copilot, cursor), sorted, joined by ", "; a person active through two sources on a day is one active user, and this names both.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."tool" IS 'AI coding tool that produced the session, as the uploader named it (for example claude-code, cursor, codex).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."model" IS 'Model the session used, as the uploader named it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."started_at" IS 'Session start (a person-day''s midnight UTC); group ai_sessions and ai_active_users by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ended_at" IS 'Session end, as uploaded (empty when the uploader gave none).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_sessions_value" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_active_users_value" IS 'ai_active_users: People (or, unmatched, uploading users or reported e-mails and logins) with at least one AI session started, or a telemetry or vendor-report day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_usage" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.feature AS "feature",
  s.model AS "model",
  s.outcome AS "outcome",
  s.created_at AS "created_at",
  (s.input_tokens + s.output_tokens) AS "ai_tokens_value"
FROM "public"."ai_calls" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_usage" IS 'Every call this service made to a language model for its AI features (session summaries, quality assessments, the notebook), successful or not, with its tokens. Month = month of the call.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."id" IS 'Call id';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."feature" IS 'summary, assessment or notebook.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."model" IS 'The model called.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."outcome" IS 'ok, rate_limited, server_error, timeout, invalid_output, client_error or network_error.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."created_at" IS 'Time of the call; group ai_tokens by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."ai_tokens_value" IS 'ai_tokens: Input plus output tokens of the model calls in the period, what the monthly token budget counts.';
--> statement-breakpoint
CREATE VIEW "bi"."author_activity" WITH (security_barrier = true) AS
SELECT
  (s.kind || ':' || s.fact_id::text) AS "id",
  s.team_id AS "team_id",
  s.kind AS "kind",
  s.happened_at AS "happened_at",
  s.author_key AS "active_authors_value"
FROM "public"."cube_author_activity" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."author_activity" IS 'One row per merged pull request (at mergedAt) and per commit (at its commit time), with the author matched to a person through the person''s identities; an unmatched author is counted by username (or e-mail).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."id" IS 'The fact, as kind:id (a merged pull request or a commit).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."kind" IS 'pull_request or commit.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."happened_at" IS 'Merge time of a pull request or time of a commit; group active_authors by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."active_authors_value" IS 'active_authors: Distinct authors of PRs merged or commits made in the period.';
--> statement-breakpoint
CREATE VIEW "bi"."change_lead_times" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.deployment_id AS "deployment_id",
  s.first_commit_known AS "first_commit_known",
  s.first_commit_at AS "first_commit_at",
  s.merged_at AS "merged_at",
  s.deployed_at AS "deployed_at",
  s.is_deployed AS "is_deployed",
  s.lead_time_seconds AS "lead_time_seconds",
  s.deployment_external_id AS "deployment_external_id",
  s.project_key AS "project_key",
  s.number AS "number",
  s.title AS "title",
  s.author_username AS "author_username",
  s.opened_at AS "opened_at",
  COALESCE((s.is_deployed), false) AS "in_deployed_changes",
  COALESCE((NOT s.is_deployed), false) AS "in_undeployed_changes"
FROM "public"."cube_change_lead_times" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."change_lead_times" IS 'Merged pull requests of the tenant''s projects, each with the first successful production deployment of the same project created at or after the merge (production = isProduction, or when absent environment production), attributed to the team owning the project. A change starts at the PR''s first commit (its createdAt when no commit is known). Month of a lead time measure = month of the deployment; a PR never followed by such a deployment has no lead time and counts as undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."id" IS 'Merged pull request (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."team_id" IS 'Team owning the pull request''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployment_id" IS 'The first successful production deployment of the project created at or after the merge; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."first_commit_known" IS 'Whether a commit is linked to the pull request; when not, the change starts at the PR''s createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."first_commit_at" IS 'Time of the PR''s earliest linked commit, else the PR''s createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."merged_at" IS 'Group undeployed_changes by this time dimension (an undeployed change has no deployed_at).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployed_at" IS 'Time (createdAt) of the deployment that shipped the change. Group lead_time_for_changes_p50_seconds and deployed_changes by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."is_deployed" IS 'A successful production deployment of the same project followed the merge; the rows deployed_changes counts (not deployed = undeployed_changes).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."lead_time_seconds" IS 'Seconds from the first commit (else the PR''s createdAt) to the deploying deployment; the value lead_time_for_changes_p50_seconds takes the median of. Empty when not deployed.
lead_time_for_changes_p50_seconds: DORA lead time for changes. Median seconds from a merged PR''s first commit (its createdAt when no commit is known) to the first successful production deployment of the same project created at or after the merge, over the deployments created in the period; empty when none.
lead_time_for_changes_p90_seconds: 90th percentile of the lead time for changes over the deployments created in the period (the same changes as lead_time_for_changes_p50_seconds); empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployment_external_id" IS 'externalId of the deployment that shipped the change; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."number" IS 'The PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."title" IS 'The PR''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."author_username" IS 'Code-host username of the PR''s author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."opened_at" IS 'PR opened (createdAt).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_deployed_changes" IS 'deployed_changes: Merged pull requests whose first successful production deployment of the same project at or after the merge was created in the period; the n of lead_time_for_changes_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_undeployed_changes" IS 'undeployed_changes: Merged pull requests not (yet) followed by a successful production deployment of the same project created at or after the merge; they have no lead time. Group by merged_at.';
--> statement-breakpoint
CREATE VIEW "bi"."commits" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.has_ai_coauthor AS "has_ai_coauthor",
  s.committed_at AS "committed_at"
FROM "public"."cube_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."commits" IS 'Commits pushed to the tenant''s projects, attributed to the team owning the project. Month = month of the commit time.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."id" IS 'Commit (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."has_ai_coauthor" IS 'Whether the commit message carries an AI co-author trailer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."committed_at" IS 'Commit time; group commits by this time dimension.';
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
failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.
failed_deployment_recovery_time_p90_seconds: 90th percentile of the failed deployment recovery time over the failed production deployments created in the period that recovered; empty when none.';
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
CREATE VIEW "bi"."incidents" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.caused_by_deployment_id AS "caused_by_deployment_id",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  s.is_restored AS "is_restored",
  s.restore_seconds AS "restore_seconds",
  s.external_id AS "external_id",
  s.title AS "title",
  s.project_key AS "project_key",
  s.cause_rule AS "cause_rule",
  s.caused_by_external_id AS "caused_by_external_id",
  COALESCE((s.is_restored), false) AS "in_incidents_restored"
FROM "public"."cube_incidents" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."incidents" IS 'Issues of type incident, each with the deployment that caused it (metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before the incident was created, else none). Month of a restore measure = month of closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."id" IS 'Incident (UUID; an issue of type incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."team_id" IS 'Team owning the incident''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."caused_by_deployment_id" IS 'Deployment that caused the incident (UUID): metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."created_at" IS 'Incident opened; group incidents_opened by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."closed_at" IS 'Group mttr_p50_seconds and incidents_restored by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."is_restored" IS 'Closed (state closed with a closedAt); the rows incidents_restored counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."restore_seconds" IS 'closedAt − createdAt in seconds of a restored incident (else empty); the value mttr_p50_seconds takes the median of.
mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.
mttr_p90_seconds: 90th percentile of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."external_id" IS 'The incident''s key (externalId) in its tracker.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."title" IS 'The incident''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."project_key" IS 'Key of the incident''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."cause_rule" IS 'named: metadata.causedByDeployment names the deployment; recent: the latest successful production deployment of the project in the 24 hours before; empty when no cause.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."caused_by_external_id" IS 'externalId of the deployment that caused the incident; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."in_incidents_restored" IS 'incidents_restored: Incidents closed (state closed) in the period; the n of mttr_p50_seconds.';
--> statement-breakpoint
CREATE VIEW "bi"."issues" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.type AS "type",
  s.state AS "state",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  s.is_closed AS "is_closed",
  s.lead_time_seconds AS "lead_time_seconds",
  s.external_id AS "external_id",
  s.title AS "title",
  s.project_key AS "project_key",
  COALESCE((s.is_closed), false) AS "in_issues_closed"
FROM "public"."cube_issues" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."issues" IS 'Issues of the tenant''s projects, attributed to the team owning the project. Month of an issue measure = month of its closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."id" IS 'Issue (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."type" IS 'feature, bug, chore, discovery, incident or other.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."state" IS 'Current state of the issue.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."created_at" IS 'Issue opened.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."closed_at" IS 'Group issues_closed and issue_lead_time_p50_seconds by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."is_closed" IS 'State closed with a closedAt; the rows issues_closed counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."lead_time_seconds" IS 'closedAt − createdAt in seconds of a closed issue (else empty); the value issue_lead_time_p50_seconds takes the median of.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.
issue_lead_time_p90_seconds: 90th percentile of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."external_id" IS 'The issue''s key (externalId) in its tracker.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."title" IS 'The issue''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."project_key" IS 'Key of the issue''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."in_issues_closed" IS 'issues_closed: Issues closed (state closed) with closedAt in the period. Also the n of issue_lead_time_p50_seconds.';
--> statement-breakpoint
CREATE VIEW "bi"."memberships" WITH (security_barrier = true) AS
SELECT
  (s.team_id::text || ':' || s.person_id::text) AS "id",
  s.team_id AS "team_id",
  s.person_id AS "person_id",
  s.membership_source AS "membership_source",
  s.person_id AS "headcount_value",
  COALESCE((s.membership_source = 'register'), false) AS "in_register_headcount",
  COALESCE((s.membership_source = 'manual'), false) AS "in_manual_headcount"
FROM "public"."team_memberships" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."memberships" IS 'Current membership of people in teams (no history is kept). A person on two teams has two memberships.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."id" IS 'Membership (person × team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."person_id" IS 'Person (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."membership_source" IS 'register (from the register import) or manual.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."headcount_value" IS 'headcount: People currently members of the team, however they came (register import or added by hand, `manual`). Attribution of a person''s facts uses these memberships. A distinct count of people, so a person on two teams counts once for the organisation (for a team it is its memberships). Not the export''s headcount, which is register_headcount.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."in_register_headcount" IS 'register_headcount: Members the last register import left in the team (no history is kept); the team-baseline export''s headcount. Memberships added by hand are not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."in_manual_headcount" IS 'manual_headcount: Current memberships added through the API or web app (membership_source manual), which the register does not know; they count for attribution, not for headcount.';
--> statement-breakpoint
CREATE VIEW "bi"."people" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.employment_type AS "employment_type",
  s.supplier_name AS "supplier_name",
  s.cost_centre_code AS "cost_centre_code",
  s.location_country AS "location_country"
FROM "public"."people" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."people" IS 'People of the register (employees, contractors, supplier staff).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."id" IS 'Person (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."employment_type" IS 'employee, contractor, supplier or unknown.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."supplier_name" IS 'Supplier employing the person, for supplier staff.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."cost_centre_code" IS 'Cost centre of the person from the register (a join key for finance, not a cost).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."location_country" IS 'Country of the person from the register.';
--> statement-breakpoint
CREATE VIEW "bi"."projects" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.project_key AS "project_key",
  s.provider AS "provider",
  s.owning_team_id AS "owning_team_id",
  COALESCE((EXISTS (SELECT 1 FROM deployments d WHERE d.project_id = s.id)), false) AS "in_deployment_sources"
FROM "public"."projects" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."projects" IS 'Repositories (owner/repo). A project has at most one owning team; facts of an unowned project count for no team but appear in tenant-wide queries.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."id" IS 'Project (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."project_key" IS 'The repository as owner/repo.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."provider" IS 'codehost when the code-host application reports the repository, else manual (named only by the webhook API, a tracker mapping or a team''s ownership). One project per repository whatever the source of its facts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."owning_team_id" IS 'Team owning the project (UUID); empty for an unowned project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."in_deployment_sources" IS 'deployment_sources: Projects that have ever sent a deployment (any environment or status). 0 for a team means the team has no deployment source, which is why its deployment measures are empty rather than zero.';
--> statement-breakpoint
CREATE VIEW "bi"."pull_request_reviews" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.reviewer AS "reviewer",
  s.state AS "state",
  s.submitted_at AS "submitted_at",
  s.is_counted AS "is_counted",
  s.number AS "number",
  s.project_key AS "project_key",
  s.title AS "title",
  s.author_username AS "author_username",
  COALESCE((s.is_counted), false) AS "in_reviews_given",
  COALESCE((s.is_counted), false) AS "in_reviewers",
  s.reviewer AS "reviewers_value"
FROM "public"."cube_pull_request_reviews" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."pull_request_reviews" IS 'Reviews submitted on the pull requests of the tenant''s projects (approved, changes requested, commented; a review later dismissed still counts as given), attributed to the team owning the project. A review counts as given when its reviewer is not the PR''s author and not a bot. Month = month of the submission.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."id" IS 'The review: <project id>:<the code host''s review id>.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."team_id" IS 'Team owning the pull request''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."reviewer" IS 'Code-host username of the reviewer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."state" IS 'The review as submitted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."submitted_at" IS 'Group every review measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."is_counted" IS 'The reviewer is not the PR''s author and not a bot; the rows reviews_given counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."number" IS 'The reviewed PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."title" IS 'The reviewed PR''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."author_username" IS 'Code-host username of the reviewed PR''s author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."in_reviews_given" IS 'reviews_given: Reviews submitted in the period by someone other than the PR''s author and not a bot (a re-requested review answered again counts again).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."in_reviewers" IS 'reviewers: Distinct reviewers who gave a review in the period; the n of reviews_per_reviewer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."reviewers_value" IS 'reviewers: Distinct reviewers who gave a review in the period; the n of reviews_per_reviewer.';
--> statement-breakpoint
CREATE VIEW "bi"."pull_requests" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.state AS "state",
  s.author_username AS "author_username",
  s.ai_assisted AS "ai_assisted",
  s.created_at AS "created_at",
  s.merged_at AS "merged_at",
  s.is_merged AS "is_merged",
  s.cycle_time_seconds AS "cycle_time_seconds",
  s.number AS "number",
  s.title AS "title",
  s.project_key AS "project_key",
  s.ai_via_session AS "ai_via_session",
  s.ai_via_trailer AS "ai_via_trailer",
  s.ai_via_label AS "ai_via_label",
  s.ready_at AS "ready_at",
  s.first_review_at AS "first_review_at",
  s.first_commit_at AS "first_commit_at",
  s.deployed_at AS "deployed_at",
  s.has_coding_time AS "has_coding_time",
  s.is_reviewed AS "is_reviewed",
  s.merged_without_review AS "merged_without_review",
  s.is_deployed AS "is_deployed",
  s.coding_time_seconds AS "coding_time_seconds",
  s.pickup_time_seconds AS "pickup_time_seconds",
  s.review_time_seconds AS "review_time_seconds",
  s.deploy_time_seconds AS "deploy_time_seconds",
  s.pr_size AS "pr_size",
  s.deployment_external_id AS "deployment_external_id",
  s.is_reverted AS "is_reverted",
  s.reverted_because AS "reverted_because",
  COALESCE((s.is_merged), false) AS "in_prs_merged",
  (CASE WHEN s.is_merged THEN s.change_volume END) AS "ccv_total_value",
  (CASE WHEN s.is_merged THEN s.change_effort_units END) AS "ceu_total_value",
  COALESCE((s.is_merged AND s.ai_assisted), false) AS "in_ai_assisted_prs_merged",
  COALESCE((s.has_coding_time), false) AS "in_coding_time_count",
  COALESCE((s.is_reviewed), false) AS "in_pickup_time_count",
  COALESCE((s.is_reviewed), false) AS "in_review_time_count",
  COALESCE((s.is_deployed), false) AS "in_deploy_time_count",
  COALESCE((s.merged_without_review), false) AS "in_merged_without_review_prs",
  COALESCE((s.is_reverted), false) AS "in_reverted_prs"
FROM "public"."cube_pull_requests" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."pull_requests" IS 'Pull requests of the tenant''s projects, attributed to the team owning the project. Month of a merge measure = month of mergedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."id" IS 'Pull request (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."state" IS 'open, closed (without merge) or merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."author_username" IS 'Code-host username of the author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_assisted" IS 'An AI session is linked to the PR, a commit of it has an AI co-author trailer, or it carries the label ai-assisted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."created_at" IS 'PR opened.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."merged_at" IS 'Group every merge measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_merged" IS 'The PR has a mergedAt; the rows prs_merged counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."cycle_time_seconds" IS 'mergedAt − createdAt in seconds (empty when not merged); the value pr_cycle_time_p50_seconds takes the median of.
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.
pr_cycle_time_p90_seconds: 90th percentile of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period (nine in ten merged sooner or as soon); empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."number" IS 'The PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."title" IS 'The PR''s title as the code host sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_session" IS 'An AI session is linked to the PR (one of the three reasons of ai_assisted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_trailer" IS 'A commit of the PR has an AI co-author trailer (one of the three reasons of ai_assisted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_label" IS 'The PR carries the label ai-assisted (one of the three reasons of ai_assisted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ready_at" IS 'When the PR was opened, or, opened as a draft, when it was first marked ready for review. Empty while a draft.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."first_review_at" IS 'The earliest review submitted (approved, changes requested or commented) by someone other than the author and not a bot; for a merged PR only one before the merge. Empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."first_commit_at" IS 'Author time of the merged PR''s earliest linked commit; empty when no commit is known.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deployed_at" IS 'Time (createdAt) of the first successful production deployment of the project created at or after the merge; empty when undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."has_coding_time" IS 'Merged, with a known first commit; the rows coding_time_count counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_reviewed" IS 'Merged after a review by someone other than the author and not a bot; the rows pickup_time_count and review_time_count count.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."merged_without_review" IS 'Merged with no review by someone other than the author (and not a bot) before the merge; the rows merged_without_review_prs counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_deployed" IS 'Merged and followed by a successful production deployment of the same project; the rows deploy_time_count counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."coding_time_seconds" IS 'Ready for review − first commit''s author time, in seconds (0 when the commit is dated after it); the value coding_time_p50_seconds takes the median of.
coding_time_p50_seconds: Median of ready for review − first commit over the PRs merged in the period that have a known commit (METRICS.md PR phases).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."pickup_time_seconds" IS 'First review − ready for review, in seconds (0 for a review of the draft before it was ready); the value pickup_time_p50_seconds takes the median of.
pickup_time_p50_seconds: Median of first review − ready for review over the PRs merged in the period after a review by someone other than the author (not a bot).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."review_time_seconds" IS 'Merge − first review, in seconds; the value review_time_p50_seconds takes the median of.
review_time_p50_seconds: Median of merge − first review over the PRs merged in the period after a review by someone other than the author (not a bot).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deploy_time_seconds" IS 'First successful production deployment at or after the merge − merge, in seconds; the value deploy_time_p50_seconds takes the median of.
deploy_time_p50_seconds: Median of first successful production deployment at or after the merge − merge over the PRs merged in the period that were deployed. Month = merge month (lead time for changes is by deployment month).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."pr_size" IS 'Additions + deletions of a merged PR; the value pr_size_p50 takes the median of.
pr_size_p50: Median of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deployment_external_id" IS 'externalId of the deployment whose createdAt is deployed_at; empty when undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_reverted" IS 'A later merged PR of the same project reverts it within 30 days of its merge (its title is Revert "<title>", or a commit of it says This reverts commit <sha> of this PR''s merge commit or one of its commits); the rows reverted_prs counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."reverted_because" IS 'Why the PR counts as reverted: the first reverting PR, its merge day and the rule (title, or which commit reverts which); empty when not reverted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ccv_total_value" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ceu_total_value" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_ai_assisted_prs_merged" IS 'ai_assisted_prs_merged: Merged PRs of the period that are AI-assisted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_coding_time_count" IS 'coding_time_count: PRs merged in the period with a known first commit; the n of coding_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_pickup_time_count" IS 'pickup_time_count: PRs merged in the period after a review by someone other than the author; the n of pickup_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_review_time_count" IS 'review_time_count: PRs merged in the period after a review by someone other than the author; the n of review_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_deploy_time_count" IS 'deploy_time_count: PRs merged in the period followed by a successful production deployment of the same project; the n of deploy_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_merged_without_review_prs" IS 'merged_without_review_prs: PRs merged in the period with no review by someone other than the author (and not a bot) before the merge.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_reverted_prs" IS 'reverted_prs: PRs merged in the period that a later merged PR of the same project reverted within 30 days of their merge (METRICS.md Rework). Month = the reverted PR''s merge month.';
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
CREATE VIEW "bi"."session_assessments" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.model AS "model",
  s.started_at AS "started_at",
  s.session_id AS "assessed_sessions_value",
  s.score AS "assessment_score_mean_value",
  s.session_id AS "session_id",
  s.task_completed AS "task_completed"
FROM "public"."cube_session_assessments" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."session_assessments" IS 'The quality rubric (docs/ai.md) scored by a model for each AI session with a transcript. One row per assessed session and enabled team of the session''s person, as in ai_sessions (a person on two teams counts in both). Month = month the session started.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."row_key" IS 'Session × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."team_id" IS 'Team of the session''s person (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."model" IS 'The model that scored the session.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."started_at" IS 'Start of the assessed session; group the assessment measures by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."assessed_sessions_value" IS 'assessed_sessions: AI sessions started in the period that have a quality assessment; the n of assessment_score_mean.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."assessment_score_mean_value" IS 'assessment_score_mean: Mean rubric score of the assessed sessions started in the period (task completed 40, tests run 20, no rework needed 20, no risky action 20); empty when none. Exact per team; across teams a session of a person on two teams counts once per team.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."session_id" IS 'tasks_completed_share: Share of the assessed sessions started in the period whose task the model judged completed (0–1); empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."task_completed" IS 'tasks_completed_share: Share of the assessed sessions started in the period whose task the model judged completed (0–1); empty when none.';
--> statement-breakpoint
CREATE VIEW "bi"."survey_responses" WITH (security_barrier = true) AS
SELECT
  (s.team_id::text || ':' || s.month::text) AS "row_key",
  s.team_id AS "team_id",
  ((s.month::timestamp AT TIME ZONE 'UTC')) AS "month",
  s.invitations AS "invitations_value",
  s.responses AS "responses_value",
  s.responses AS "responses",
  s.invitations AS "invitations",
  s.answer_sum AS "answer_sum",
  s.answer_count AS "answer_count"
FROM "public"."survey_team_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."survey_responses" IS 'Perception surveys per team and month (a survey counts in every month its answer window overlaps). Responses are anonymous; only the team is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."row_key" IS 'Team × month key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."team_id" IS 'Team surveyed (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."month" IS 'Month a survey''s answer window overlaps; group the survey measures by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."invitations_value" IS 'invitations: Invitations of the team''s surveys open in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."responses_value" IS 'responses: Responses to the team''s surveys open in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."responses" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.
team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."invitations" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."answer_sum" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."answer_count" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
CREATE VIEW "bi"."survey_results" WITH (security_barrier = true) AS
SELECT
  (s.survey_id::text || ':' || s.team_id::text) AS "row_key",
  s.survey_id AS "survey_id",
  s.team_id AS "team_id",
  s.invitations AS "survey_invitations_value",
  s.responses AS "survey_responses_value",
  s.responses AS "responses",
  s.invitations AS "invitations",
  s.answer_sum AS "answer_sum",
  s.answer_count AS "answer_count"
FROM "public"."survey_team_results" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."survey_results" IS 'Each survey''s invitations, responses and scores per invited team (whole survey, not by month). Responses are anonymous; only the team is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."row_key" IS 'Survey × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_id" IS 'Survey (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."team_id" IS 'Team invited to the survey (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_invitations_value" IS 'survey_invitations: People of the team invited to the survey.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_responses_value" IS 'survey_responses: Responses of the team to the survey; the n of survey_results.survey_experience_score.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."responses" IS 'survey_answer_rate: Responses ÷ invitations (0–1); empty when no invitation.
survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."invitations" IS 'survey_answer_rate: Responses ÷ invitations (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."answer_sum" IS 'survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."answer_count" IS 'survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
CREATE VIEW "bi"."team_months" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.month AS "month"
FROM "public"."cube_team_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."team_months" IS 'One row per enabled team and calendar month (UTC) from 2000-01 to the current month; the root of the team_monthly view, joined to each fact cube by team and the month of its time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."row_key" IS 'Team × month key.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."month" IS 'First instant of the calendar month (UTC); group by it with granularity month.';
--> statement-breakpoint
CREATE VIEW "bi"."teams" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.slug AS "slug",
  s.name AS "name",
  s.external_ref AS "external_ref",
  s.cost_centre_code AS "cost_centre_code",
  s.supplier_name AS "supplier_name",
  s.delivery_model AS "delivery_model",
  s.location_country AS "location_country",
  s.enabled AS "enabled"
FROM "public"."teams" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."teams" IS 'Delivery teams of the register. Facts of a project count for its owning team; facts of a person (AI sessions, seats, surveys) count for every enabled team the person belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."slug" IS 'Stable short name of the team from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."name" IS 'Display name of the team.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."external_ref" IS 'The team''s id in the register''s source system.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."cost_centre_code" IS 'Cost centre of the team (a join key for finance, not a cost).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."supplier_name" IS 'Supplier delivering the team, when it is outsourced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."delivery_model" IS 'Delivery model from the register (free text, for example in-house or outsourced).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."location_country" IS 'Country of the team from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."enabled" IS 'Disabled teams are left out of the team-baseline export and of person attribution.';
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
