-- bi.change_lead_times regenerated from schema/change_lead_times.yml (tools/bi/generate.ts): the change failure rate of the deployments that shipped the changes (issue 47 point 3: shipping_deploys, failed_shipping_deploys, shipping_change_failure_rate) adds the flag columns in_shipping_deploys and in_failed_shipping_deploys.
DROP VIEW IF EXISTS "bi"."change_lead_times";
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
  s.ai_attribution AS "ai_attribution",
  s.ai_attribution_evidence AS "ai_attribution_evidence",
  COALESCE((s.is_deployed), false) AS "in_deployed_changes",
  COALESCE((NOT s.is_deployed), false) AS "in_undeployed_changes",
  COALESCE((s.is_deployed AND EXISTS (SELECT 1 FROM cube_deployments sd WHERE sd.id = s.deployment_id AND sd.is_finished_production)), false) AS "in_shipping_deploys",
  s.deployment_id AS "shipping_deploys_value",
  COALESCE((s.is_deployed AND EXISTS (SELECT 1 FROM cube_deployments sd WHERE sd.id = s.deployment_id AND sd.is_failed)), false) AS "in_failed_shipping_deploys",
  s.deployment_id AS "failed_shipping_deploys_value"
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
COMMENT ON COLUMN "bi"."change_lead_times"."ai_attribution" IS 'The PR''s AI attribution level, the highest its evidence reaches: high (a linked AI session, uploaded, captured or from telemetry, names it, its branch or one of its commits; or a vendor reports AI-written lines in one of its commits), medium (an AI co-author, Made-with or Claude-Session trailer; the label ai-assisted or one the owner configured; an agent branch prefix; an AI agent author), low (only its author''s AI activity on a day of one of its commits), none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."ai_attribution_evidence" IS 'Why the PR has its level, in words: each signal of the level with its source, e.g. ''trailer Co-authored-by: Claude <noreply@anthropic.com> (commit 1a2b3c4)''; empty for none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_deployed_changes" IS 'deployed_changes: Merged pull requests whose first successful production deployment of the same project at or after the merge was created in the period; the n of lead_time_for_changes_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_undeployed_changes" IS 'undeployed_changes: Merged pull requests not (yet) followed by a successful production deployment of the same project created at or after the merge; they have no lead time. Group by merged_at.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_shipping_deploys" IS 'shipping_deploys: Distinct finished production deployments that shipped a PR merged in the period (each PR''s first successful production deployment of the project at or after the merge), counted once however many PRs each shipped; the denominator of shipping_change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."shipping_deploys_value" IS 'shipping_deploys: Distinct finished production deployments that shipped a PR merged in the period (each PR''s first successful production deployment of the project at or after the merge), counted once however many PRs each shipped; the denominator of shipping_change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_failed_shipping_deploys" IS 'failed_shipping_deploys: The shipping deployments that failed (deployments.is_failed; a deployment that shipped a change succeeded, so it failed by a later rollback or by causing an incident); the numerator of shipping_change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."failed_shipping_deploys_value" IS 'failed_shipping_deploys: The shipping deployments that failed (deployments.is_failed; a deployment that shipped a change succeeded, so it failed by a later rollback or by causing an incident); the numerator of shipping_change_failure_rate.';
