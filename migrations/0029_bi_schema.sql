-- BI access over the PostgreSQL protocol (issue 21, docs/bi.md). Each BI credential is a LOGIN role
-- named in bi_credentials; the views of schema "bi" show the rows of that role's tenant only
-- (security_barrier, so a BI tool's functions in WHERE cannot see rows before the tenant filter).
-- The views belong to the migration's owner: they read public.* with its rights, the BI roles get
-- USAGE on "bi" and SELECT on its views, nothing else. The rest below the schema is generated from
-- schema/*.yml by tools/bi/generate.ts.
CREATE TABLE "bi_credentials" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "role_name" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "bi_credentials_role_name_unique" UNIQUE ("role_name"),
  CONSTRAINT "bi_credentials_tenant_name_unique" UNIQUE ("tenant_id", "name")
);
--> statement-breakpoint
-- PostgreSQL grants USAGE on schema public to PUBLIC: every login role, a BI role included, could
-- call the functions there and see its relations' names. The server connects as the owner.
REVOKE ALL ON SCHEMA "public" FROM PUBLIC;
--> statement-breakpoint
CREATE SCHEMA "bi";
--> statement-breakpoint
REVOKE ALL ON SCHEMA "bi" FROM PUBLIC;
--> statement-breakpoint
CREATE VIEW "bi"."ai_commits" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.committed_at AS "committed_at",
  s.id AS "ai_commits_value"
FROM "public"."cube_ai_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_commits" IS 'Commits that an AI session names, counted for every enabled team of the session''s person. Month = month of the commit time.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."row_key" IS 'Link × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."committed_at" IS 'Commit time; group ai_commits by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_commits_value" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_sessions" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.tool AS "tool",
  s.model AS "model",
  s.started_at AS "started_at",
  s.id AS "ai_sessions_value",
  s.user_key AS "ai_active_users_value"
FROM "public"."cube_ai_sessions" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_sessions" IS 'AI coding sessions uploaded by users. A session belongs to the person whose e-mail identity matches the uploader, and counts for every enabled team of that person (a person on two teams counts in both). Month = month the session started.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."row_key" IS 'Session × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."team_id" IS 'Team of the session''s person (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."tool" IS 'AI coding tool that produced the session, as the uploader named it (for example claude-code, cursor, codex).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."model" IS 'Model the session used, as the uploader named it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."started_at" IS 'Session start; group ai_sessions and ai_active_users by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_sessions_value" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_active_users_value" IS 'ai_active_users: People (or, unmatched, uploading users) with at least one AI session started in the period.';
--> statement-breakpoint
CREATE VIEW "bi"."author_activity" WITH (security_barrier = true) AS
SELECT
  (s.kind || ':' || s.fact_id::text) AS "id",
  s.team_id AS "team_id",
  s.kind AS "kind",
  s.happened_at AS "happened_at",
  s.author_key AS "active_authors_value"
FROM "public"."cube_author_activity" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
  COALESCE((s.deployed_at IS NOT NULL), false) AS "in_deployed_changes",
  COALESCE((s.deployed_at IS NULL), false) AS "in_undeployed_changes",
  s.lead_time_seconds AS "lead_time_seconds"
FROM "public"."cube_change_lead_times" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
COMMENT ON COLUMN "bi"."change_lead_times"."in_deployed_changes" IS 'deployed_changes: Merged pull requests whose first successful production deployment of the same project at or after the merge was created in the period; the n of lead_time_for_changes_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_undeployed_changes" IS 'undeployed_changes: Merged pull requests not (yet) followed by a successful production deployment of the same project created at or after the merge; they have no lead time. Group by merged_at.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."lead_time_seconds" IS 'lead_time_for_changes_p50_seconds: DORA lead time for changes. Median seconds from a merged PR''s first commit (its createdAt when no commit is known) to the first successful production deployment of the same project created at or after the merge, over the deployments created in the period; empty when none.';
--> statement-breakpoint
CREATE VIEW "bi"."commits" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.has_ai_coauthor AS "has_ai_coauthor",
  s.committed_at AS "committed_at"
FROM "public"."cube_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
  COALESCE((s.is_production AND s.status = 'success'), false) AS "in_production_deploys",
  COALESCE((s.is_production AND s.is_finished), false) AS "in_finished_production_deploys",
  COALESCE((s.is_failed), false) AS "in_failed_production_deploys",
  COALESCE((s.recovered_at IS NOT NULL), false) AS "in_recovered_deploys",
  s.recovered_at AS "recovered_at"
FROM "public"."cube_deployments" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
COMMENT ON COLUMN "bi"."deployments"."created_at" IS 'Group every deployment measure by this time dimension.
failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_production_deploys" IS 'production_deploys: Successful production deployments created in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_finished_production_deploys" IS 'finished_production_deploys: Production deployments with status success, failure or error created in the period; the denominator of change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_failed_production_deploys" IS 'failed_production_deploys: Production deployments created in the period that failed (status failure or error, rolled back later, or caused an incident); each counts once.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_recovered_deploys" IS 'recovered_deploys: Failed production deployments followed by a successful, not rolled back, production deployment of the same project; the n of failed_deployment_recovery_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovered_at" IS 'failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.';
--> statement-breakpoint
CREATE VIEW "bi"."incidents" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.caused_by_deployment_id AS "caused_by_deployment_id",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  COALESCE((s.state = 'closed' AND s.closed_at IS NOT NULL), false) AS "in_incidents_restored",
  s.state AS "state"
FROM "public"."cube_incidents" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."incidents" IS 'Issues of type incident, each with the deployment that caused it (metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before the incident was created, else none). Month of a restore measure = month of closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."id" IS 'Incident (UUID; an issue of type incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."team_id" IS 'Team owning the incident''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."caused_by_deployment_id" IS 'Deployment that caused the incident (UUID): metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."created_at" IS 'Incident opened; group incidents_opened by this time dimension.
mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."closed_at" IS 'Group mttr_p50_seconds and incidents_restored by this time dimension.
mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."in_incidents_restored" IS 'incidents_restored: Incidents closed (state closed) in the period; the n of mttr_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."state" IS 'mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
CREATE VIEW "bi"."issues" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.type AS "type",
  s.state AS "state",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  COALESCE((s.state = 'closed' AND s.closed_at IS NOT NULL), false) AS "in_issues_closed"
FROM "public"."issues" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."issues" IS 'Issues of the tenant''s projects, attributed to the team owning the project. Month of an issue measure = month of its closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."id" IS 'Issue (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."type" IS 'feature, bug, chore, discovery, incident or other.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."state" IS 'Current state of the issue.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."created_at" IS 'Issue opened.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."closed_at" IS 'Group issues_closed and issue_lead_time_p50_seconds by this time dimension.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."in_issues_closed" IS 'issues_closed: Issues closed (state closed) with closedAt in the period. Also the n of issue_lead_time_p50_seconds.';
--> statement-breakpoint
CREATE VIEW "bi"."memberships" WITH (security_barrier = true) AS
SELECT
  (s.team_id::text || ':' || s.person_id::text) AS "id",
  s.team_id AS "team_id",
  s.person_id AS "person_id",
  s.membership_source AS "membership_source"
FROM "public"."team_memberships" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
CREATE VIEW "bi"."people" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.employment_type AS "employment_type",
  s.supplier_name AS "supplier_name",
  s.cost_centre_code AS "cost_centre_code",
  s.location_country AS "location_country"
FROM "public"."people" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."projects" IS 'Repositories (owner/repo). A project has at most one owning team; facts of an unowned project count for no team but appear in tenant-wide queries.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."id" IS 'Project (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."project_key" IS 'The repository as owner/repo.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."provider" IS 'Where the project''s facts come from: github, gitlab or manual (webhook API).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."owning_team_id" IS 'Team owning the project (UUID); empty for an unowned project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."in_deployment_sources" IS 'deployment_sources: Projects that have ever sent a deployment (any environment or status). 0 for a team means the team has no deployment source, which is why its deployment measures are empty rather than zero.';
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
  COALESCE((s.merged_at IS NOT NULL), false) AS "in_prs_merged",
  (CASE WHEN s.merged_at IS NOT NULL THEN s.change_volume END) AS "ccv_total_value",
  (CASE WHEN s.merged_at IS NOT NULL THEN s.change_effort_units END) AS "ceu_total_value",
  COALESCE((s.merged_at IS NOT NULL AND s.ai_assisted), false) AS "in_ai_assisted_prs_merged"
FROM "public"."cube_pull_requests" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
COMMENT ON COLUMN "bi"."pull_requests"."created_at" IS 'PR opened.
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."merged_at" IS 'Group every merge measure by this time dimension.
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ccv_total_value" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ceu_total_value" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_ai_assisted_prs_merged" IS 'ai_assisted_prs_merged: Merged PRs of the period that are AI-assisted.';
--> statement-breakpoint
CREATE VIEW "bi"."seats" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.tool AS "tool",
  ((s.month::timestamp AT TIME ZONE 'UTC')) AS "month",
  s.person_id AS "ai_seat_holders_value"
FROM "public"."cube_seat_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
--> statement-breakpoint
COMMENT ON VIEW "bi"."seats" IS 'AI-tool seats by month held (a seat counts in every month it is held on at least one day, from assigned_on to revoked_on or today), counted for every enabled team of the holder.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."row_key" IS 'Seat × month × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."team_id" IS 'Team of the seat holder (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."tool" IS 'AI tool of the seat, as imported.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."month" IS 'Month the seat was held on at least one day; group ai_seat_holders by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."ai_seat_holders_value" IS 'ai_seat_holders: People holding an AI-tool seat at any time in the period.';
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
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
