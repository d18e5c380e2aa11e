-- One source per period (issue 46; METRICS.md "Deployment (DORA)", docs/codehost-deployments.md
-- "Switching"). A project's deployments come from one source at a time: after a switch the new
-- source counts from its earliest stored record on, the other sources' rows only before it. Those
-- rows stay stored; their fact row says which source replaced them (deployment_facts.replaced_by)
-- and they count in no measure: not production_deploys, not change failure rate (neither numerator
-- nor denominator), not recovery (neither as the failed nor as the recovering deployment), not as a
-- rollback, and they ship no PR (lead time). The rule is read from the project's current source and
-- its records, so switching back restores them; nothing is deleted.
--
-- * deployment_source_of(provider, metadata): the webhook API's rows (provider manual) are
--   `webhook`; the code host's rows carry theirs in metadata.source (`deployments`,
--   `workflow_runs`, `releases`).
-- * deployment_replaced_by(project, source, at): the project's current source when it is set,
--   differs from `source`, and has a record (any status, environment or withdrawal) created at or
--   before `at`; else null. An index per (project, source, created_at) makes it one lookup.
-- * Notes (the write-noting of 0055): a change of projects.deployment_source notes every deployment
--   of the project; a record of the project's source, written or deleted, also takes (in the
--   catch-up) the other sources' rows created at or after it.
CREATE FUNCTION deployment_source_of(provider text, metadata jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN provider = 'codehost' THEN metadata ->> 'source' ELSE 'webhook' END
$$;
--> statement-breakpoint
CREATE INDEX "deployments_project_source_created_idx" ON "deployments" ("project_id", deployment_source_of("provider", "metadata"), "created_at");
--> statement-breakpoint
CREATE FUNCTION deployment_replaced_by(project uuid, source text, at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT p.deployment_source FROM "projects" p
  WHERE p.id = project AND p.deployment_source IS NOT NULL AND p.deployment_source IS DISTINCT FROM source
    AND EXISTS (SELECT 1 FROM "deployments" y
                WHERE y.project_id = project AND deployment_source_of(y.provider, y.metadata) = p.deployment_source AND y.created_at <= at)
$$;
--> statement-breakpoint
ALTER TABLE "deployment_facts" ADD COLUMN "replaced_by" text;
--> statement-breakpoint
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
        AND deployment_replaced_by(d.project_id, deployment_source_of(d.provider, d.metadata), d.created_at) IS NULL
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
CREATE OR REPLACE FUNCTION delivery_facts_catch_up(tenant uuid, wait_ms integer DEFAULT NULL, max_notes integer DEFAULT 2000, up_to bigint DEFAULT NULL)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  prior_wait text := current_setting('lock_timeout');
  taken "delivery_facts_pending"[];
  candidates uuid[];
  prs uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "delivery_facts_pending" p WHERE p.tenant_id = tenant AND p.seq <= COALESCE(up_to, 9223372036854775807)) THEN
    RETURN 0;
  END IF;
  -- A reader waits for another catch-up of its tenant at most this long (lock_not_available after).
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', wait_ms || 'ms', true); END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', prior_wait, true); END IF;
  -- A new snapshot (READ COMMITTED): the chunk another catch-up committed before the lock was
  -- granted is gone; the oldest notes left, at most max_notes of them.
  WITH gone AS (
    DELETE FROM "delivery_facts_pending" p
    WHERE p.tenant_id = tenant AND p.seq = ANY (ARRAY(
      SELECT q.seq FROM "delivery_facts_pending" q
      WHERE q.tenant_id = tenant AND q.seq <= COALESCE(up_to, 9223372036854775807)
      ORDER BY q.seq LIMIT max_notes))
    RETURNING p.*
  )
  SELECT coalesce(array_agg(g), '{}') INTO taken FROM gone g;
  IF cardinality(taken) = 0 OR NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = tenant) THEN RETURN cardinality(taken); END IF;
  -- One source per period (METRICS.md): a record of the project's source, written or moved, may
  -- replace (or, gone, restore) the other sources' rows created at or after it; they are taken as
  -- if noted, with their current images, so that everything below recomputes them as well.
  taken := taken || ARRAY(
    SELECT ROW(x.tenant_id, 'd'::"char", x.id, x.project_id, x.external_id, x.is_rollback, x.rollback_from_sha,
               x.status = 'success' AND COALESCE(x.is_production, x.environment = 'production'), x.created_at, NULL::text, NULL::bigint)::"delivery_facts_pending"
    FROM (SELECT n.project_id, min(n.created_at) AS created_at FROM unnest(taken) n
          JOIN "projects" p ON p.id = n.project_id AND p.deployment_source IS NOT NULL
          WHERE n.kind = 'd' AND (NOT EXISTS (SELECT 1 FROM "deployments" e WHERE e.id = n.id)
            OR EXISTS (SELECT 1 FROM "deployments" e WHERE e.id = n.id AND deployment_source_of(e.provider, e.metadata) = p.deployment_source))
          GROUP BY n.project_id) s
    JOIN "projects" p ON p.id = s.project_id
    JOIN "deployments" x ON x.project_id = s.project_id AND x.created_at >= s.created_at
    WHERE deployment_source_of(x.provider, x.metadata) IS DISTINCT FROM p.deployment_source);

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
        AND deployment_replaced_by(e.project_id, deployment_source_of(e.provider, e.metadata), e.created_at) IS NULL
      ORDER BY e.created_at DESC, e.id DESC LIMIT 1
    ) prev ON true
    JOIN "change_lead_times" l ON l.project_id = d.project_id AND l.merged_at >= COALESCE(prev.created_at, '-infinity') AND l.merged_at <= d.created_at
    WHERE d.good
  ) x;
  PERFORM change_lead_times_refresh(prs);
  RETURN cardinality(taken);
END $$;
--> statement-breakpoint
-- A project's source changed: every deployment of it may now count, or no longer.
CREATE FUNCTION delivery_facts_note_project_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
  SELECT d.tenant_id, 'd', d.id, d.project_id, d.external_id, d.is_rollback, d.rollback_from_sha,
         d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production'), d.created_at
  FROM "deployments" d WHERE d.project_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_source AFTER UPDATE OF deployment_source ON projects FOR EACH ROW
  WHEN (OLD.deployment_source IS DISTINCT FROM NEW.deployment_source)
  EXECUTE FUNCTION delivery_facts_note_project_source();
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
       f.replaced_by
FROM "deployment_facts" f
LEFT JOIN "deployments" d ON d.id = f.deployment_id
LEFT JOIN "projects" p ON p.id = f.project_id;
--> statement-breakpoint
-- The facts stored so far: every project with a source set gets its replaced rows now.
SELECT deployment_facts_refresh(ARRAY(SELECT d.id FROM "deployments" d JOIN "projects" p ON p.id = d.project_id WHERE p.deployment_source IS NOT NULL), '{}', '{}');
