-- Defined by versioned migrations up to 0070_source_switch_leftovers; since then by this file (docs/sql-source.md).
-- depends-on: cube_incidents
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
