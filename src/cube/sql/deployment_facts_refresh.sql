-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION deployment_facts_refresh(candidates uuid[], moved_projects uuid[], moved_at timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  flipped uuid[];
BEGIN
  WITH computed AS MATERIALIZED (
    SELECT d.id, d.tenant_id, d.project_id, d.created_at, d.status, COALESCE(d.is_production, d.environment = 'production') AS is_production,
           deployment_replaced_by(d.project_id, deployment_source_of(d.provider, d.metadata), d.created_at) AS replaced_by,
           EXISTS (
             SELECT 1 FROM "deployments" r
             WHERE r.project_id = d.project_id AND r.is_rollback
               AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
               AND r.created_at > d.created_at
               AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
               AND deployment_replaced_by(r.project_id, deployment_source_of(r.provider, r.metadata), r.created_at) IS NULL
           ) AS rolled_back,
           EXISTS (
             SELECT 1 FROM "issues" i
             WHERE i.type = 'incident' AND (
               (i.tenant_id = d.tenant_id AND (i.metadata ->> 'causedByDeployment') = d.external_id)
               OR (i.project_id = d.project_id AND i.created_at >= d.created_at AND i.created_at <= d.created_at + interval '24 hours'))
               AND incident_cause(i.tenant_id, i.project_id, i.metadata ->> 'causedByDeployment', i.created_at) = d.id
           ) AS caused_incident
    FROM "deployments" d
    WHERE d.id = ANY (candidates)
  ), prior AS MATERIALIZED (
    SELECT c.id, c.rolled_back, c.replaced_by, (SELECT f.rolled_back FROM "deployment_facts" f WHERE f.deployment_id = c.id) AS was,
           (SELECT f.replaced_by FROM "deployment_facts" f WHERE f.deployment_id = c.id) AS was_replaced_by FROM computed c
  ), written AS (
    INSERT INTO "deployment_facts" AS f (deployment_id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident, replaced_by)
    SELECT id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident, replaced_by FROM computed
    ON CONFLICT (deployment_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
      created_at = EXCLUDED.created_at, status = EXCLUDED.status, is_production = EXCLUDED.is_production,
      rolled_back = EXCLUDED.rolled_back, caused_incident = EXCLUDED.caused_incident, replaced_by = EXCLUDED.replaced_by
    WHERE (f.tenant_id, f.project_id, f.created_at, f.status, f.is_production, f.rolled_back, f.caused_incident, f.replaced_by)
      IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.created_at, EXCLUDED.status, EXCLUDED.is_production, EXCLUDED.rolled_back, EXCLUDED.caused_incident, EXCLUDED.replaced_by)
  )
  SELECT coalesce(array_agg(id), '{}') INTO flipped FROM prior
    WHERE (was IS NOT NULL AND was <> rolled_back) OR was_replaced_by IS DISTINCT FROM replaced_by;

  WITH points AS (
    SELECT m.project_id, m.at FROM unnest(moved_projects, moved_at) AS m(project_id, at)
    UNION
    SELECT f.project_id, f.created_at FROM "deployment_facts" f WHERE f.deployment_id = ANY (flipped)
  ), reached AS (
    SELECT r.id FROM points p
    CROSS JOIN LATERAL (
      SELECT f.deployment_id AS id FROM "deployment_facts" f
      WHERE f.project_id = p.project_id AND f.created_at < p.at
        AND f.created_at >= COALESCE((
          SELECT g.created_at FROM "deployment_facts" g
          WHERE g.project_id = p.project_id AND g.status = 'success' AND g.is_production AND NOT g.rolled_back AND g.replaced_by IS NULL AND g.created_at < p.at
          ORDER BY g.created_at DESC LIMIT 1), '-infinity')
      OFFSET 0
    ) r
  ), todo AS (
    SELECT unnest(candidates) AS id UNION SELECT id FROM reached
  ), r AS MATERIALIZED (
    SELECT x.deployment_id AS id,
           CASE WHEN x.replaced_by IS NULL AND x.is_production AND (x.status IN ('failure', 'error') OR x.rolled_back OR x.caused_incident) THEN (
             SELECT n.created_at FROM "deployment_facts" n
             WHERE n.project_id = x.project_id AND n.created_at > x.created_at AND n.status = 'success' AND n.is_production AND NOT n.rolled_back AND n.replaced_by IS NULL
             ORDER BY n.created_at LIMIT 1) END AS recovered_at
    FROM todo CROSS JOIN LATERAL (SELECT * FROM "deployment_facts" x WHERE x.deployment_id = todo.id OFFSET 0) x
  )
  UPDATE "deployment_facts" f SET recovered_at = r.recovered_at
  FROM r
  WHERE f.deployment_id = ANY (ARRAY(SELECT id FROM r)) AND f.deployment_id = r.id AND f.recovered_at IS DISTINCT FROM r.recovered_at;
END $$;
