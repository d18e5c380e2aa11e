-- What a fact write pays in planning (issue 34; measured with `BENCH_STATEMENTS=1 npm run
-- bench:webhooks`, docs/write-path.md). The recomputation's statements take arrays and rows of the
-- transition tables as parameters; PostgreSQL's plan cache kept choosing a custom plan for them,
-- so every write planned them again (some 3 ms of planning per deployment statement, more than
-- their execution). Their generic plans are the same index lookups: the trigger functions now run
-- with plan_cache_mode = force_generic_plan, so each connection plans each statement once. The
-- setting holds for the functions they call (deployment_facts_refresh, change_lead_times_refresh,
-- incident_cause). A plan never changes an answer: the rules and their results are those of 0021.
ALTER FUNCTION delivery_facts_deployments_changed() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION delivery_facts_incidents_changed() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION delivery_facts_pull_requests_changed() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION delivery_facts_commits_changed() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION delivery_facts_lock_row() SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- The locks of 0048 as PL/pgSQL: a SQL function of two statements is planned on every call (one
-- call per written row); PL/pgSQL keeps its plans. Same locks, same order.
CREATE OR REPLACE FUNCTION delivery_facts_lock(tenants uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('delivery_facts:' || t, 0))
  FROM (SELECT DISTINCT t FROM unnest(tenants) AS u(t) ORDER BY t) s;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION delivery_facts_lock_projects(tenant uuid, projects uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('delivery_facts:' || tenant, 0));
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:project:' || p, 0))
  FROM (SELECT DISTINCT p FROM unnest(projects) AS u(p) WHERE p IS NOT NULL ORDER BY p) s;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION delivery_facts_lock_tenant(tenant uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
END $$;
--> statement-breakpoint
-- deployment_facts_refresh of 0021, written so that its generic plan is the index lookups its
-- custom plans were: a generic plan cannot know that `candidates` holds a few ids, and joined the
-- whole of deployments and deployment_facts by hash. Each lookup is now per candidate or per point
-- (`= ANY`, a correlated subquery, LATERAL … OFFSET 0, which is never flattened into a join).
-- Same rules, same rows.
CREATE OR REPLACE FUNCTION deployment_facts_refresh(candidates uuid[], moved_projects uuid[], moved_at timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  flipped uuid[];
BEGIN
  WITH computed AS MATERIALIZED (
    SELECT d.id, d.tenant_id, d.project_id, d.created_at, d.status, COALESCE(d.is_production, d.environment = 'production') AS is_production,
           EXISTS (
             SELECT 1 FROM "deployments" r
             WHERE r.project_id = d.project_id AND r.is_rollback
               AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
               AND r.created_at > d.created_at
               AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
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
    SELECT c.id, c.rolled_back, (SELECT f.rolled_back FROM "deployment_facts" f WHERE f.deployment_id = c.id) AS was FROM computed c
  ), written AS (
    INSERT INTO "deployment_facts" AS f (deployment_id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident)
    SELECT id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident FROM computed
    ON CONFLICT (deployment_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
      created_at = EXCLUDED.created_at, status = EXCLUDED.status, is_production = EXCLUDED.is_production,
      rolled_back = EXCLUDED.rolled_back, caused_incident = EXCLUDED.caused_incident
    WHERE (f.tenant_id, f.project_id, f.created_at, f.status, f.is_production, f.rolled_back, f.caused_incident)
      IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.created_at, EXCLUDED.status, EXCLUDED.is_production, EXCLUDED.rolled_back, EXCLUDED.caused_incident)
  )
  SELECT coalesce(array_agg(id), '{}') INTO flipped FROM prior WHERE was IS NOT NULL AND was <> rolled_back;

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
          WHERE g.project_id = p.project_id AND g.status = 'success' AND g.is_production AND NOT g.rolled_back AND g.created_at < p.at
          ORDER BY g.created_at DESC LIMIT 1), '-infinity')
      OFFSET 0
    ) r
  ), todo AS (
    SELECT unnest(candidates) AS id UNION SELECT id FROM reached
  ), r AS MATERIALIZED (
    SELECT x.deployment_id AS id,
           CASE WHEN x.is_production AND (x.status IN ('failure', 'error') OR x.rolled_back OR x.caused_incident) THEN (
             SELECT n.created_at FROM "deployment_facts" n
             WHERE n.project_id = x.project_id AND n.created_at > x.created_at AND n.status = 'success' AND n.is_production AND NOT n.rolled_back
             ORDER BY n.created_at LIMIT 1) END AS recovered_at
    FROM todo CROSS JOIN LATERAL (SELECT * FROM "deployment_facts" x WHERE x.deployment_id = todo.id OFFSET 0) x
  )
  UPDATE "deployment_facts" f SET recovered_at = r.recovered_at
  FROM r
  WHERE f.deployment_id = ANY (ARRAY(SELECT id FROM r)) AND f.deployment_id = r.id AND f.recovered_at IS DISTINCT FROM r.recovered_at;
END $$;
