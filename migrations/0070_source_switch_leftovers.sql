-- Issue 46 points 2 and 3, the leftovers of 0064 (one source per period).
--
-- 1. A backfill's walk remembers the job whose request began it (codehost_backfills.started_by_job_id):
--    a job taken for dead, whose walk a continuation finished, does not walk again when the queue
--    retries it after its expiry (src/codehost/backfill.ts; docs/codehost-deployments.md "Backfill").
-- 2. cube_deployments gains the flags of a row whatever its source's period (any_source_*) and
--    is_replaced: the deployment measures count the any-source flags of the rows not replaced, the
--    rule 0064 wrote into the is_* flags, now read by the drill-through to list the replaced rows of
--    a measure apart ("replaced by <source>"; docs/drill-through.md). The is_* flags keep their meaning.
-- 3. bi.deployments and bi.team_month regenerated from the models (`npx tsx tools/bi/generate.ts`).
ALTER TABLE "codehost_backfills" ADD COLUMN "started_by_job_id" text;
--> statement-breakpoint
CREATE OR REPLACE VIEW "cube_deployments" AS
SELECT f.tenant_id, f.deployment_id AS id, f.project_id, p.owning_team_id AS team_id, d.environment, f.status, d.sha, d.is_rollback,
       f.created_at, f.is_production,
       f.status IN ('success', 'failure', 'error') AS is_finished,
       f.rolled_back, f.caused_incident,
       f.replaced_by IS NULL AND b.failed AS is_failed,
       f.recovered_at,
       -- The flags production_deploys, finished_production_deploys and recovered_deploys count.
       -- A row replaced by the project's current source (replaced_by) counts in none of them.
       f.replaced_by IS NULL AND b.successful_production AS is_successful_production,
       f.replaced_by IS NULL AND b.finished_production AS is_finished_production,
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
           WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL) END) END AS rework_because,
       -- The measures count the any-source flags of the rows not replaced (schema/deployments.yml),
       -- so a drill-through lists the replaced rows of a measure apart (docs/drill-through.md).
       f.replaced_by IS NOT NULL AS is_replaced,
       b.successful_production AS any_source_successful_production,
       b.finished_production AS any_source_finished_production,
       b.failed AS any_source_failed
FROM "deployment_facts" f
LEFT JOIN "deployments" d ON d.id = f.deployment_id
LEFT JOIN "projects" p ON p.id = f.project_id
-- A row's flags whatever its source's period, written once (the planner inlines it).
CROSS JOIN LATERAL (SELECT f.is_production AND f.status = 'success' AS successful_production,
                           f.is_production AND f.status IN ('success', 'failure', 'error') AS finished_production,
                           f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS failed) b;
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."deployments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."team_month";
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
  COALESCE((s.any_source_successful_production AND NOT s.is_replaced), false) AS "in_production_deploys",
  COALESCE((s.any_source_finished_production AND NOT s.is_replaced), false) AS "in_finished_production_deploys",
  COALESCE((s.any_source_failed AND NOT s.is_replaced), false) AS "in_failed_production_deploys",
  COALESCE((s.is_recovered), false) AS "in_recovered_deploys"
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
COMMENT ON COLUMN "bi"."deployments"."in_production_deploys" IS 'production_deploys: Successful production deployments created in the period (of each project''s source for that period; rows replaced by another source are not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_finished_production_deploys" IS 'finished_production_deploys: Production deployments with status success, failure or error created in the period; the denominator of change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_failed_production_deploys" IS 'failed_production_deploys: Production deployments created in the period that failed (status failure or error, rolled back later, or caused an incident); each counts once.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_recovered_deploys" IS 'recovered_deploys: Failed production deployments followed by a successful, not rolled back, production deployment of the same project; the n of failed_deployment_recovery_time_p50_seconds.';
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
