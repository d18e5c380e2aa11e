-- The stored delivery facts (migration 0021) are brought up to date when they are read, not in the
-- writing transaction (issue 34; docs/write-path.md). Until now every deployment, incident, PR and
-- commit write recomputed, in its own transaction and under advisory locks (0048), the facts its rows
-- may change: some ten index lookups and two upserts per deployment, 7-8x the cost of the row itself.
--
-- Now a write only notes what it changed: an AFTER ROW trigger appends the before and after images
-- of the row (the few columns the rules read) to delivery_facts_pending, in the writer's own
-- transaction, taking no lock. delivery_facts_catch_up(tenant) takes a tenant's pending notes and
-- recomputes, with the rules and functions of 0021/0053 unchanged, what they may have changed. It is
-- called before every cube query that reads the stored facts (src/cube/deliveryFacts.ts) and every
-- few seconds by the `cube.delivery-facts-catch-up` schedule, so:
--   * a read sees the facts of every write committed before it began (its catch-up deletes the
--     notes its snapshot sees, recomputes, and commits before the query's own snapshot is taken;
--     a second reader waits on the tenant's catch-up lock, then finds the notes gone);
--   * writers never wait for one another or for a catch-up (the notes table has no unique key);
--   * notes are coalesced: a thousand writes to one project since the last read are one catch-up.
-- Catching up later with a newer snapshot gives the same facts as catching up after each write: a
-- note's affected set is derived from its images and the current rows, every row changed since the
-- last catch-up has its latest image noted, and every function below recomputes from the current
-- rows (the same argument as for one statement writing many rows, which 0021 already handled).
CREATE TABLE "delivery_facts_pending" (
  "tenant_id" uuid NOT NULL,
  -- d: a deployment's image; i: an incident's image; p: a pull request whose lead time may change;
  -- c: a commit whose time changed (its PRs are found when caught up).
  "kind" "char" NOT NULL,
  "id" uuid,
  "project_id" uuid,
  "external_id" text,
  "is_rollback" boolean,
  "rollback_from_sha" text,
  -- d: successful and production (the deployments that ship merged PRs).
  "good" boolean,
  "created_at" timestamptz,
  -- i: metadata.causedByDeployment.
  "named" text
);
--> statement-breakpoint
CREATE INDEX "delivery_facts_pending_tenant_idx" ON "delivery_facts_pending" ("tenant_id");
--> statement-breakpoint
-- No foreign key to tenants: the triggers also fire inside a tenant's cascading delete (as for
-- cube_rollup_changes, 0016); a deleted tenant's notes are dropped by its next catch-up.
SELECT app_tenant_floor('delivery_facts_pending');
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock ON deployments;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_update ON deployments;
--> statement-breakpoint
DROP TRIGGER delivery_facts_insert ON deployments;
--> statement-breakpoint
DROP TRIGGER delivery_facts_update ON deployments;
--> statement-breakpoint
DROP TRIGGER delivery_facts_delete ON deployments;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_update ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_delete ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_insert ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_update ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_delete ON issues;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock ON pull_requests;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_update ON pull_requests;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_delete ON pull_requests;
--> statement-breakpoint
DROP TRIGGER delivery_facts_insert ON pull_requests;
--> statement-breakpoint
DROP TRIGGER delivery_facts_update ON pull_requests;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER delivery_facts_insert ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER delivery_facts_update ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER delivery_facts_delete ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER delivery_facts_lock_update ON commits;
--> statement-breakpoint
DROP TRIGGER delivery_facts_update ON commits;
--> statement-breakpoint
DROP FUNCTION delivery_facts_deployments_changed();
--> statement-breakpoint
DROP FUNCTION delivery_facts_incidents_changed();
--> statement-breakpoint
DROP FUNCTION delivery_facts_pull_requests_changed();
--> statement-breakpoint
DROP FUNCTION delivery_facts_commits_changed();
--> statement-breakpoint
DROP FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
DROP FUNCTION delivery_facts_lock_link(uuid, uuid[]);
--> statement-breakpoint
DROP FUNCTION delivery_facts_lock_projects(uuid, uuid[]);
--> statement-breakpoint
DROP FUNCTION delivery_facts_lock_tenant(uuid);
--> statement-breakpoint
DROP FUNCTION delivery_facts_lock(uuid[]);
--> statement-breakpoint
-- Row-level AFTER triggers whose WHEN clauses skip, without calling anything, the writes that change
-- no fact: other issue types, webhook re-posts (no column the rules read changed), PRs not merged.
-- (Statement-level triggers with transition tables cost a function call and a tuplestore on every
-- statement, measured at about a tenth more per single-row upsert.)
-- A deployment written: its before and after images. Rows of a tenant being deleted are skipped.
CREATE FUNCTION delivery_facts_note_deployment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at),
           (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An incident written (an issue of type incident before or after): its images.
CREATE FUNCTION delivery_facts_note_incident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment'),
           (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A pull request whose lead time may change (a deleted PR's row goes with it by cascade).
CREATE FUNCTION delivery_facts_note_pull_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A PR's commits linked or unlinked (also when a commit is deleted: the link goes by cascade): the PR.
CREATE FUNCTION delivery_facts_note_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (OLD.tenant_id, 'p', OLD.pull_request_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.pull_request_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A commit's time changed: the commit (the PRs it is linked to are found when caught up).
CREATE FUNCTION delivery_facts_note_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'c', NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note AFTER INSERT OR DELETE ON deployments FOR EACH ROW EXECUTE FUNCTION delivery_facts_note_deployment();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_update AFTER UPDATE ON deployments FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.project_id, OLD.external_id, OLD.sha, OLD.environment, OLD.status, OLD.is_production, OLD.is_rollback, OLD.rollback_from_sha, OLD.created_at)
    IS DISTINCT FROM (NEW.tenant_id, NEW.project_id, NEW.external_id, NEW.sha, NEW.environment, NEW.status, NEW.is_production, NEW.is_rollback, NEW.rollback_from_sha, NEW.created_at))
  EXECUTE FUNCTION delivery_facts_note_deployment();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note AFTER INSERT ON issues FOR EACH ROW WHEN (NEW.type = 'incident') EXECUTE FUNCTION delivery_facts_note_incident();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_update AFTER UPDATE ON issues FOR EACH ROW
  WHEN ((OLD.type = 'incident' OR NEW.type = 'incident')
    AND (OLD.tenant_id, OLD.project_id, OLD.type, OLD.metadata ->> 'causedByDeployment', OLD.created_at)
      IS DISTINCT FROM (NEW.tenant_id, NEW.project_id, NEW.type, NEW.metadata ->> 'causedByDeployment', NEW.created_at))
  EXECUTE FUNCTION delivery_facts_note_incident();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_delete AFTER DELETE ON issues FOR EACH ROW WHEN (OLD.type = 'incident') EXECUTE FUNCTION delivery_facts_note_incident();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note AFTER INSERT ON pull_requests FOR EACH ROW WHEN (NEW.merged_at IS NOT NULL) EXECUTE FUNCTION delivery_facts_note_pull_request();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_update AFTER UPDATE ON pull_requests FOR EACH ROW
  WHEN ((OLD.project_id, OLD.merged_at, OLD.created_at) IS DISTINCT FROM (NEW.project_id, NEW.merged_at, NEW.created_at))
  EXECUTE FUNCTION delivery_facts_note_pull_request();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note AFTER INSERT OR UPDATE OR DELETE ON pull_request_commits FOR EACH ROW EXECUTE FUNCTION delivery_facts_note_link();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_note_update AFTER UPDATE ON commits FOR EACH ROW
  WHEN (OLD.committed_at IS DISTINCT FROM NEW.committed_at) EXECUTE FUNCTION delivery_facts_note_commit();
--> statement-breakpoint
-- 0053's refresh with the rows it computes locked FOR KEY SHARE: writers no longer wait for a
-- recomputation, so a deployment could be deleted (and its fact row with it, by cascade) between the
-- catch-up's read and its insert of the fact row, which would then fail its foreign key. The lock
-- makes such a delete wait for the catch-up's commit (its cascade then removes the new row); updates
-- of deployments are not held up (KEY SHARE conflicts only with deletes and key changes).
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
    FOR KEY SHARE OF d
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
-- 0021's lead-time refresh with its pull requests locked FOR KEY SHARE, for the reason above.
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
    FOR KEY SHARE OF pr
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
-- A tenant's pending notes, taken and recomputed (what 0021's AFTER triggers did per statement, with
-- the notes' images in place of the transition tables). Returns how many notes it took. Callers run
-- it in a transaction of its own and commit before they read (src/cube/deliveryFacts.ts). Without
-- notes it takes no lock: the check reads committed notes only, and notes a concurrent catch-up has
-- taken but not yet committed still read as present, so the caller then waits for that catch-up.
CREATE FUNCTION delivery_facts_catch_up(tenant uuid) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  taken "delivery_facts_pending"[];
  candidates uuid[];
  prs uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "delivery_facts_pending" p WHERE p.tenant_id = tenant) THEN RETURN 0; END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
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
-- As 0053 did for the triggers: each connection plans each statement once (their generic plans are
-- the index lookups; a custom plan per call cost more than the lookups).
ALTER FUNCTION delivery_facts_catch_up(uuid) SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- Every stored fact from scratch (after a TRUNCATE, or a load with triggers off): the pending notes
-- are dropped first, so that every note dropped is covered by the recomputation's later snapshot.
CREATE OR REPLACE FUNCTION delivery_facts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "delivery_facts_pending";
  DELETE FROM "deployment_facts";
  DELETE FROM "change_lead_times";
  PERFORM deployment_facts_refresh(ARRAY(SELECT id FROM "deployments"), '{}', '{}');
  PERFORM change_lead_times_refresh(ARRAY(SELECT id FROM "pull_requests" WHERE merged_at IS NOT NULL));
END $$;
