-- Two findings of a review of 0055 (docs/write-path.md):
--
-- * The refresh functions locked the rows they wrote facts for FOR KEY SHARE, so that a concurrent
--   delete could not fail the fact row's foreign key. That lock also holds up every update of a
--   column of a unique index (a PR moved to another project, a deployment's externalId), can
--   deadlock a writer (who then fails, not the catch-up), and writes a lock marker (WAL) into every
--   row a catch-up touches. The locks go: a catch-up that meets a row deleted after its snapshot
--   fails its foreign key instead, its transaction (notes included) rolls back, and the caller
--   runs it again with a new snapshot (src/cube/deliveryFacts.ts; the delete noted its own image).
--   Writers never wait for a catch-up.
-- * A reader waited for another catch-up of its tenant without limit. delivery_facts_catch_up takes
--   the longest wait (the cube query timeout); past it the query fails with a timeout the caller
--   can retry, rather than queueing behind a long catch-up for ever.
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION change_lead_times_refresh(prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(prs) = 0 THEN RETURN; END IF;
  WITH src AS MATERIALIZED (
    SELECT pr.id, pr.tenant_id, pr.project_id, pr.merged_at,
           COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at, fc.first_commit_at IS NOT NULL AS first_commit_known,
           dep.id AS deployment_id, dep.created_at AS deployed_at,
           extract(epoch FROM dep.created_at - COALESCE(fc.first_commit_at, pr.created_at))::double precision AS lead_time_seconds
    FROM "pull_requests" pr
    LEFT JOIN LATERAL (
      SELECT min(c.committed_at) AS first_commit_at
      FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
      WHERE prc.pull_request_id = pr.id
    ) fc ON true
    LEFT JOIN LATERAL (
      SELECT d.id, d.created_at FROM "deployments" d
      WHERE d.project_id = pr.project_id AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
        AND d.created_at >= pr.merged_at
      ORDER BY d.created_at, d.id LIMIT 1
    ) dep ON true
    WHERE pr.id IN (SELECT unnest(prs)) AND pr.merged_at IS NOT NULL
  ), gone AS (
    DELETE FROM "change_lead_times" c
    WHERE c.pull_request_id IN (SELECT unnest(prs)) AND NOT EXISTS (SELECT 1 FROM src WHERE src.id = c.pull_request_id)
  )
  INSERT INTO "change_lead_times" AS c (pull_request_id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds)
  SELECT id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds FROM src
  ON CONFLICT (pull_request_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
    merged_at = EXCLUDED.merged_at, first_commit_at = EXCLUDED.first_commit_at, first_commit_known = EXCLUDED.first_commit_known,
    deployment_id = EXCLUDED.deployment_id, deployed_at = EXCLUDED.deployed_at, lead_time_seconds = EXCLUDED.lead_time_seconds
  WHERE (c.tenant_id, c.project_id, c.merged_at, c.first_commit_at, c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds)
    IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.merged_at, EXCLUDED.first_commit_at, EXCLUDED.first_commit_known, EXCLUDED.deployment_id, EXCLUDED.deployed_at, EXCLUDED.lead_time_seconds);
END $$;
--> statement-breakpoint
DROP FUNCTION delivery_facts_catch_up(uuid);
--> statement-breakpoint
CREATE FUNCTION delivery_facts_catch_up(tenant uuid, wait_ms integer DEFAULT NULL) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  prior_wait text := current_setting('lock_timeout');
  taken "delivery_facts_pending"[];
  candidates uuid[];
  prs uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "delivery_facts_pending" p WHERE p.tenant_id = tenant) THEN RETURN 0; END IF;
  -- A reader waits for another catch-up of its tenant at most this long (lock_not_available after).
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', wait_ms || 'ms', true); END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', prior_wait, true); END IF;
  -- A new snapshot (READ COMMITTED): every note committed before the lock was granted.
  WITH gone AS (DELETE FROM "delivery_facts_pending" p WHERE p.tenant_id = tenant RETURNING p.*)
  SELECT coalesce(array_agg(g), '{}') INTO taken FROM gone g;
  IF cardinality(taken) = 0 OR NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = tenant) THEN RETURN cardinality(taken); END IF;

  WITH d AS (SELECT * FROM unnest(taken) WHERE kind = 'd'), i AS (SELECT * FROM unnest(taken) WHERE kind = 'i')
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO candidates FROM (
    SELECT d.id FROM d
    UNION ALL
    SELECT x.id FROM d JOIN "deployments" x ON x.project_id = d.project_id AND left(lower(x.sha), 7) = left(lower(d.rollback_from_sha), 7)
    WHERE d.is_rollback
    UNION ALL
    SELECT c.id FROM d JOIN "issues" n ON n.tenant_id = d.tenant_id AND (n.metadata ->> 'causedByDeployment') = d.external_id AND n.type = 'incident'
    CROSS JOIN LATERAL incident_cause_candidates(n.tenant_id, n.project_id, n.metadata ->> 'causedByDeployment', n.created_at) AS c(id)
    UNION ALL
    SELECT c.id FROM d JOIN "issues" n ON n.project_id = d.project_id AND n.type = 'incident'
      AND n.created_at >= d.created_at AND n.created_at <= d.created_at + interval '24 hours'
    CROSS JOIN LATERAL incident_cause_candidates(n.tenant_id, n.project_id, n.metadata ->> 'causedByDeployment', n.created_at) AS c(id)
    UNION ALL
    SELECT c.id FROM i CROSS JOIN LATERAL incident_cause_candidates(i.tenant_id, i.project_id, i.named, i.created_at) AS c(id)
  ) x;
  IF cardinality(candidates) > 0 OR EXISTS (SELECT 1 FROM unnest(taken) WHERE kind = 'd') THEN
    PERFORM deployment_facts_refresh(candidates,
      ARRAY(SELECT project_id FROM unnest(taken) WHERE kind = 'd'),
      ARRAY(SELECT created_at FROM unnest(taken) WHERE kind = 'd'));
  END IF;

  WITH d AS (SELECT * FROM unnest(taken) WHERE kind = 'd')
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO prs FROM (
    SELECT p.id FROM unnest(taken) p WHERE p.kind = 'p'
    UNION ALL
    SELECT prc.pull_request_id FROM unnest(taken) c JOIN "pull_request_commits" prc ON prc.commit_id = c.id WHERE c.kind = 'c'
    UNION ALL
    SELECT l.pull_request_id FROM d JOIN "change_lead_times" l ON l.deployment_id = d.id
    UNION ALL
    SELECT l.pull_request_id FROM d
    LEFT JOIN LATERAL (
      SELECT e.created_at FROM "deployments" e
      WHERE e.project_id = d.project_id AND e.status = 'success' AND COALESCE(e.is_production, e.environment = 'production')
        AND (e.created_at, e.id) < (d.created_at, d.id)
      ORDER BY e.created_at DESC, e.id DESC LIMIT 1
    ) prev ON true
    JOIN "change_lead_times" l ON l.project_id = d.project_id AND l.merged_at >= COALESCE(prev.created_at, '-infinity') AND l.merged_at <= d.created_at
    WHERE d.good
  ) x;
  PERFORM change_lead_times_refresh(prs);
  RETURN cardinality(taken);
END $$;
--> statement-breakpoint
ALTER FUNCTION delivery_facts_catch_up(uuid, integer) SET plan_cache_mode = force_generic_plan;
