-- PR phases and rework (issue 47 points 1 and 2; METRICS.md "PR phases" and "Rework";
-- docs/pr-phases.md). What the code host's events now keep:
-- * pull_requests.ready_at: opened non-draft → its createdAt; opened as a draft → the first
--   `ready_for_review`. Rows stored before this migration kept no draft history: a non-draft row is
--   taken as ready when opened.
-- * pull_request_reviews: every review submitted (one row per review id); pull_requests.first_review_at
--   the earliest by someone other than the author and not a bot, kept by the writers of either row.
-- * commits.reverts_sha: the sha a revert commit names (`This reverts commit <sha>`), generated.
-- The phases themselves are read, not written: columns of cube_pull_requests over these and the
-- stored change_lead_times (first commit, deploying deployment), so a deployment or issue write
-- pays nothing more (bench:webhooks, docs/pr-phases.md "Cost").
CREATE TABLE "pull_request_reviews" (
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"pull_request_number" integer NOT NULL,
	"review_id" bigint NOT NULL,
	"reviewer" text NOT NULL,
	"reviewer_is_bot" boolean DEFAULT false NOT NULL,
	"state" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pull_request_reviews_project_id_review_id_pk" PRIMARY KEY("project_id","review_id"),
	CONSTRAINT "pull_request_reviews_state" CHECK ("pull_request_reviews"."state" in ('approved', 'changes_requested', 'commented', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "pull_request_reviews" ADD CONSTRAINT "pull_request_reviews_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "pull_request_reviews" ADD CONSTRAINT "pull_request_reviews_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "pull_request_reviews_pr_idx" ON "pull_request_reviews" USING btree ("project_id","pull_request_number","submitted_at");
--> statement-breakpoint
CREATE INDEX "pull_request_reviews_tenant_submitted_idx" ON "pull_request_reviews" USING btree ("tenant_id","submitted_at");
--> statement-breakpoint
SELECT app_tenant_floor('pull_request_reviews');
--> statement-breakpoint
ALTER TABLE "commits" ADD COLUMN "reverts_sha" text GENERATED ALWAYS AS (lower(substring(message from 'This reverts commit ([0-9a-fA-F]{7,40})'))) STORED;
--> statement-breakpoint
CREATE INDEX "commits_project_reverts_idx" ON "commits" USING btree ("project_id",left("reverts_sha", 7)) WHERE reverts_sha IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "pull_requests" ADD COLUMN "ready_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "pull_requests" ADD COLUMN "first_review_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "pull_requests" SET "ready_at" = "created_at" WHERE NOT "draft";
--> statement-breakpoint
CREATE INDEX "pull_requests_project_revert_title_idx" ON "pull_requests" USING btree ("project_id",md5("title")) WHERE title LIKE 'Revert "%';
--> statement-breakpoint
-- The failed deployments a good one recovered (deployments.rework_rate's recoveries): few rows.
CREATE INDEX "deployment_facts_recovered_idx" ON "deployment_facts" ("project_id", "recovered_at") WHERE recovered_at IS NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE VIEW "cube_pull_requests" AS
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.number, pr.state, pr.draft, pr.author_username,
       pr.additions, pr.deletions,
       pr.additions + pr.deletions AS change_volume,
       CASE WHEN pr.additions + pr.deletions <= 10 THEN 1
            WHEN pr.additions + pr.deletions <= 50 THEN 2
            WHEN pr.additions + pr.deletions <= 250 THEN 3
            WHEN pr.additions + pr.deletions <= 1000 THEN 5
            ELSE 8 END AS change_effort_units,
       pr.created_at, pr.merged_at, pr.closed_at,
       (ai.pull_request_id IS NOT NULL
        OR (cardinality(pr.labels) > 0 AND EXISTS (SELECT 1 FROM unnest(pr.labels) AS label WHERE lower(label) = 'ai-assisted'))) AS ai_assisted,
       pr.merged_at IS NOT NULL AS is_merged,
       extract(epoch FROM pr.merged_at - pr.created_at)::double precision AS cycle_time_seconds,
       pr.title,
       p.project_key,
       -- Why a PR is AI-assisted, each part of ai_assisted's rule on its own (pull_request_ai_assisted, 0003).
       EXISTS (SELECT 1 FROM "ai_session_links" l WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id) AS ai_via_session,
       EXISTS (SELECT 1 FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
               WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND cardinality(c.ai_coauthors) > 0) AS ai_via_trailer,
       EXISTS (SELECT 1 FROM unnest(pr.labels) AS label WHERE lower(label) = 'ai-assisted') AS ai_via_label,
       -- PR phases (METRICS.md "PR phases", docs/pr-phases.md): each value empty when an end is
       -- unknown; the flags are the rows each count measure counts (its n).
       CASE WHEN pr.merged_at IS NOT NULL THEN COALESCE(pr.ready_at, pr.created_at) ELSE pr.ready_at END AS ready_at,
       CASE WHEN pr.merged_at IS NULL OR pr.first_review_at <= pr.merged_at THEN pr.first_review_at END AS first_review_at,
       CASE WHEN clt.first_commit_known THEN clt.first_commit_at END AS first_commit_at,
       clt.deployed_at,
       COALESCE(pr.merged_at IS NOT NULL AND clt.first_commit_known, false) AS has_coding_time,
       COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS is_reviewed,
       pr.merged_at IS NOT NULL AND NOT COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS merged_without_review,
       COALESCE(pr.merged_at IS NOT NULL AND clt.deployed_at IS NOT NULL, false) AS is_deployed,
       -- A review before ready (on a draft) or a first commit dated after it is a phase of 0, not a negative one.
       CASE WHEN pr.merged_at IS NOT NULL AND clt.first_commit_known THEN greatest(extract(epoch FROM COALESCE(pr.ready_at, pr.created_at) - clt.first_commit_at), 0)::double precision END AS coding_time_seconds,
       CASE WHEN pr.first_review_at <= pr.merged_at THEN greatest(extract(epoch FROM pr.first_review_at - COALESCE(pr.ready_at, pr.created_at)), 0)::double precision END AS pickup_time_seconds,
       CASE WHEN pr.first_review_at <= pr.merged_at THEN extract(epoch FROM pr.merged_at - pr.first_review_at)::double precision END AS review_time_seconds,
       CASE WHEN pr.merged_at IS NOT NULL THEN extract(epoch FROM clt.deployed_at - pr.merged_at)::double precision END AS deploy_time_seconds,
       CASE WHEN pr.merged_at IS NOT NULL THEN pr.additions + pr.deletions END AS pr_size,
       (SELECT d.external_id FROM "deployments" d WHERE d.id = clt.deployment_id) AS deployment_external_id,
       -- Reverted within 30 days by a later merged PR of the project (METRICS.md "Rework"): by its
       -- title, or a commit naming one of its commits (its merge commit or a linked one). The flag
       -- and the reason are the same subquery.
       pr.merged_at IS NOT NULL AND (SELECT w.why FROM (
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
          FROM "pull_requests" r
          WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
            AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
          UNION ALL
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
          FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
                UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
          JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
          JOIN "pull_request_commits" rc ON rc.commit_id = c.id
          JOIN "pull_requests" r ON r.id = rc.pull_request_id
          WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
        ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1) IS NOT NULL AS is_reverted,
       CASE WHEN pr.merged_at IS NOT NULL THEN (SELECT w.why FROM (
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
          FROM "pull_requests" r
          WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
            AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
          UNION ALL
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
          FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
                UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
          JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
          JOIN "pull_request_commits" rc ON rc.commit_id = c.id
          JOIN "pull_requests" r ON r.id = rc.pull_request_id
          WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
        ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1) END AS reverted_because
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN (
  SELECT tenant_id, pull_request_id FROM "ai_session_links" WHERE pull_request_id IS NOT NULL
  UNION
  SELECT prc.tenant_id, prc.pull_request_id
  FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
  WHERE cardinality(c.ai_coauthors) > 0
) ai ON ai.tenant_id = pr.tenant_id AND ai.pull_request_id = pr.id
-- The stored facts of a merged PR (first commit, deploying deployment): a left join on its key, dropped when not read.
LEFT JOIN "change_lead_times" clt ON clt.pull_request_id = pr.id;
--> statement-breakpoint
CREATE OR REPLACE VIEW "cube_deployments" AS
SELECT f.tenant_id, f.deployment_id AS id, f.project_id, p.owning_team_id AS team_id, d.environment, f.status, d.sha, d.is_rollback,
       f.created_at, f.is_production,
       f.status IN ('success', 'failure', 'error') AS is_finished,
       f.rolled_back, f.caused_incident,
       f.replaced_by IS NULL AND f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS is_failed,
       f.recovered_at,
       -- The flags production_deploys, finished_production_deploys and recovered_deploys count.
       -- A row replaced by the project's current source (replaced_by) counts in none of them.
       f.replaced_by IS NULL AND f.is_production AND f.status = 'success' AS is_successful_production,
       f.replaced_by IS NULL AND f.is_production AND f.status IN ('success', 'failure', 'error') AS is_finished_production,
       f.recovered_at IS NOT NULL AS is_recovered,
       extract(epoch FROM f.recovered_at - f.created_at)::double precision AS recovery_seconds,
       d.external_id,
       p.project_key,
       -- The first later rollback of the project naming this sha (the rule of deployment_facts_refresh, 0021).
       (SELECT r.external_id FROM "deployments" r
        WHERE r.project_id = f.project_id AND r.is_rollback AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
          AND r.created_at > f.created_at
          AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
        ORDER BY r.created_at, r.id LIMIT 1) AS rolled_back_by,
       (SELECT r.created_at FROM "deployments" r
        WHERE r.project_id = f.project_id AND r.is_rollback AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
          AND r.created_at > f.created_at
          AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
        ORDER BY r.created_at, r.id LIMIT 1) AS rolled_back_at,
       -- The first incident whose cause (cube_incidents' rule) is this deployment, among those that
       -- may name it: by externalId, or opened in its 24 h (as the triggers of 0021 find them). Not
       -- incident_cause(): a view runs its functions as the caller, which a BI role cannot be.
       (SELECT ci.external_id FROM "cube_incidents" ci
        WHERE ci.caused_by_deployment_id = f.deployment_id
          AND ci.id IN (SELECT i.id FROM "issues" i WHERE i.type = 'incident' AND (
            (i.tenant_id = f.tenant_id AND (i.metadata ->> 'causedByDeployment') = d.external_id)
            OR (i.project_id = f.project_id AND i.created_at >= f.created_at AND i.created_at <= f.created_at + interval '24 hours')))
        ORDER BY ci.created_at, ci.id LIMIT 1) AS caused_incident_key,
       -- The good deployment at recovered_at (the next successful, not rolled back, production deployment of the project).
       (SELECT n.external_id FROM "deployment_facts" g JOIN "deployments" n ON n.id = g.deployment_id
        WHERE g.project_id = f.project_id AND g.created_at = f.recovered_at AND g.status = 'success' AND g.is_production AND NOT g.rolled_back
          AND g.replaced_by IS NULL
        ORDER BY g.deployment_id LIMIT 1) AS recovered_by,
       -- The source whose period this row falls in, when not its own (one source per period, METRICS.md).
       f.replaced_by,
       -- Rework (METRICS.md "Rework", DORA's deployment rework rate): a finished production deployment
       -- that is a rollback, or the good deployment that recovered a failed one (the deployment at
       -- another's recovered_at, the rule of recovered_by above).
       f.replaced_by IS NULL AND f.is_production AND f.status IN ('success', 'failure', 'error') AND (COALESCE(d.is_rollback, false) OR (f.status = 'success' AND NOT f.rolled_back AND EXISTS (SELECT 1 FROM "deployment_facts" x WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL))) AS is_rework,
       CASE WHEN f.replaced_by IS NULL AND f.is_production AND f.status IN ('success', 'failure', 'error') AND (COALESCE(d.is_rollback, false) OR (f.status = 'success' AND NOT f.rolled_back AND EXISTS (SELECT 1 FROM "deployment_facts" x WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL))) THEN concat_ws('; ',
         CASE WHEN d.is_rollback THEN 'rollback from ' || COALESCE(left(d.rollback_from_sha, 7), '?') END,
         CASE WHEN f.status = 'success' AND NOT f.rolled_back THEN (SELECT 'recovery after ' || string_agg(xd.external_id, ', ' ORDER BY x.created_at, x.deployment_id) || ' failed'
           FROM "deployment_facts" x JOIN "deployments" xd ON xd.id = x.deployment_id
           WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL) END) END AS rework_because
FROM "deployment_facts" f
LEFT JOIN "deployments" d ON d.id = f.deployment_id
LEFT JOIN "projects" p ON p.id = f.project_id;
--> statement-breakpoint
CREATE VIEW "cube_pull_request_reviews" AS
SELECT r.tenant_id, r.project_id::text || ':' || r.review_id AS id, r.project_id, p.owning_team_id AS team_id,
       r.pull_request_number AS number, r.reviewer, r.state, r.submitted_at,
       -- A review given: by someone other than the PR's author, not a bot (the first review's rule).
       NOT r.reviewer_is_bot AND lower(r.reviewer) IS DISTINCT FROM lower(pr.author_username) AS is_counted,
       p.project_key, pr.title, pr.author_username
FROM "pull_request_reviews" r
LEFT JOIN "projects" p ON p.id = r.project_id
LEFT JOIN "pull_requests" pr ON pr.project_id = r.project_id AND pr.number = r.pull_request_number;
--> statement-breakpoint
-- The bi views of the three cubes the models changed or added, and bi.team_month, whose
-- SELECT * over cube_pull_requests and cube_deployments was expanded when it was made
-- (npx tsx tools/bi/generate.ts).
DROP VIEW IF EXISTS "bi"."team_month";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."deployments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_requests";
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
  s.is_rework AS "is_rework",
  s.rework_because AS "rework_because",
  COALESCE((s.is_successful_production), false) AS "in_production_deploys",
  COALESCE((s.is_finished_production), false) AS "in_finished_production_deploys",
  COALESCE((s.is_failed), false) AS "in_failed_production_deploys",
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
COMMENT ON COLUMN "bi"."deployments"."is_rework" IS 'A finished production deployment that is a rollback (isRollback), or the first successful, not rolled back, production deployment after a failed one of the same project (a recovery, as recovered_by); the rows rework_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rework_because" IS 'Why the deployment is rework: rollback from <sha>, and/or recovery after <externalId of the failed deployments it recovered> failed; empty when not rework.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_production_deploys" IS 'production_deploys: Successful production deployments created in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_finished_production_deploys" IS 'finished_production_deploys: Production deployments with status success, failure or error created in the period; the denominator of change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_failed_production_deploys" IS 'failed_production_deploys: Production deployments created in the period that failed (status failure or error, rolled back later, or caused an incident); each counts once.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_recovered_deploys" IS 'recovered_deploys: Failed production deployments followed by a successful, not rolled back, production deployment of the same project; the n of failed_deployment_recovery_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_rework_deploys" IS 'rework_deploys: Finished production deployments created in the period that are a rollback or the recovery of a failed one (METRICS.md Rework); the numerator of rework_rate.';
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
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
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
      "deployments".team_id "deployments__team_id", date_trunc('month', ("deployments".created_at::timestamptz AT TIME ZONE 'UTC')) "deployments__created_at_month", count(CASE WHEN ("deployments".is_successful_production) THEN "deployments".id END) "deployments__production_deploys", count(CASE WHEN ("deployments".is_failed) THEN "deployments".id END)::numeric / NULLIF(count(CASE WHEN ("deployments".is_finished_production) THEN "deployments".id END), 0) "deployments__change_failure_rate"
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
COMMENT ON COLUMN "bi"."team_month"."production_deploys" IS 'production_deploys: Successful production deployments created in the period.';
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
COMMENT ON COLUMN "bi"."team_month"."ai_active_users" IS 'ai_active_users: People (or, unmatched, uploading users or telemetry e-mails) with at least one AI session started, or a telemetry day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_sessions" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_commits" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member.';
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
