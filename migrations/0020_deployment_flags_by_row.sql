CREATE INDEX "deployments_rollback_sha7_idx" ON "deployments" USING btree ("project_id",left(lower("rollback_from_sha"), 7)) WHERE is_rollback;--> statement-breakpoint
CREATE INDEX "issues_incident_named_idx" ON "issues" USING btree ("tenant_id",(metadata ->> 'causedByDeployment')) WHERE type = 'incident';--> statement-breakpoint
CREATE INDEX "issues_incident_project_created_idx" ON "issues" USING btree ("project_id","created_at") WHERE type = 'incident';--> statement-breakpoint
-- Same rules as migration 0007, decided per deployment instead of by joining two DISTINCT sets:
-- the planner estimated one row for each set and, under a sort by month, chose nested loops that
-- compared every deployment with every rollback and incident (75 s for a year of the bench tenant's
-- deployments by month). The incident test keeps the view's own choice of cause (cube_incidents)
-- and looks only at the incidents that could name this deployment: those naming its externalId,
-- and those of its project opened in the 24 hours after it. The flags sit in a LATERAL subquery
-- fenced by OFFSET 0 so that each is computed once per row, however often a query's measures
-- mention it (a flag left unread is not computed at all). Same flags on all 200,000 bench rows.
CREATE OR REPLACE VIEW "cube_deployment_flags" AS
SELECT d.tenant_id, d.id, d.project_id, p.owning_team_id AS team_id, d.environment, d.status, d.sha, d.is_rollback,
       d.created_at,
       COALESCE(d.is_production, d.environment = 'production') AS is_production,
       d.status IN ('success', 'failure', 'error') AS is_finished,
       flags.rolled_back, flags.caused_incident
FROM "deployments" d
LEFT JOIN "projects" p ON p.id = d.project_id
CROSS JOIN LATERAL (
  SELECT EXISTS (
         SELECT 1 FROM "deployments" r
         WHERE r.project_id = d.project_id AND r.is_rollback
           AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
           AND r.created_at > d.created_at
           AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
       ) AS rolled_back,
       EXISTS (
         SELECT 1 FROM "issues" i JOIN "cube_incidents" ci ON ci.id = i.id
         WHERE ci.caused_by_deployment_id = d.id AND i.type = 'incident' AND (
           (i.tenant_id = d.tenant_id AND (i.metadata ->> 'causedByDeployment') = d.external_id)
           OR (i.project_id = d.project_id AND i.created_at >= d.created_at AND i.created_at <= d.created_at + interval '24 hours'))
       ) AS caused_incident
  OFFSET 0
) flags;
--> statement-breakpoint
-- is_failed once per row (fenced likewise), and a failed deployment's recovery: the first later
-- successful, not rolled back, production deployment of the project, read in index order and
-- stopping at the first (migration 0007 took the minimum over all of them); a rollback naming it is
-- found through deployments_rollback_sha7_idx (two shas where one starts with the other, both of 7
-- or more characters, share their first 7). Same values on all 200,000 bench deployments.
CREATE OR REPLACE VIEW "cube_deployments" AS
SELECT f.*, x.is_failed, x.recovered_at
FROM "cube_deployment_flags" f
CROSS JOIN LATERAL (
  SELECT y.is_failed,
         CASE WHEN y.is_failed THEN (
           SELECT n.created_at FROM "deployments" n
           WHERE n.project_id = f.project_id AND n.created_at > f.created_at AND n.status = 'success'
             AND COALESCE(n.is_production, n.environment = 'production')
             AND NOT EXISTS (
               SELECT 1 FROM "deployments" r
               WHERE r.project_id = n.project_id AND r.is_rollback AND r.created_at > n.created_at
                 AND left(lower(r.rollback_from_sha), 7) = left(lower(n.sha), 7)
                 AND (starts_with(lower(n.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(n.sha))))
           ORDER BY n.created_at LIMIT 1) END AS recovered_at
  FROM (SELECT f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS is_failed) y
  OFFSET 0
) x;
