-- Stored per-deployment and per-pull-request facts for the DORA measures (docs/cube.md "Stored
-- delivery facts"). Migrations 0019 and 0020 computed them in views on every read: each of a year's
-- 66,000 bench deployments probed for a later rollback, a caused incident and its recovery, and each
-- of 108,000 merged PRs for its first commit and its deployment (about 1 s each). They are now
-- columns, kept exact in the writing transaction by the triggers below, so the cubes' measures are
-- plain aggregates. The rules are those of 0019/0020 (and cube_incidents, 0007), unchanged.
--
-- Triggers rather than service code: deployments, incidents, PRs, commits and their links are
-- written by the webhook batch statement, the code-host sync, imports, tests and hand-run SQL, and a
-- write can change the facts of *other* rows (a rollback those of the deployment it names, an
-- incident its cause's, a deployment the PRs it ships); one place that sees every write cannot miss
-- one. Each write takes a per-tenant transaction-level advisory lock before it changes a row (BEFORE
-- ROW triggers), and the statement's AFTER trigger recomputes, with a fresh snapshot, the facts its
-- rows may have changed. Two writers of one tenant therefore recompute one after the other, the
-- second seeing the first's rows: a rollback and the deployment it names arriving at once in two
-- transactions cannot both miss each other. (Writers run at READ COMMITTED, as all of ours do.)
-- One row per deployment: the columns its measures read (copied, so a window's measures scan this
-- narrow table alone) and what happened after it.
CREATE TABLE "deployment_facts" (
  "deployment_id" uuid PRIMARY KEY REFERENCES "deployments" ("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL,
  "project_id" uuid NOT NULL,
  "created_at" timestamptz NOT NULL,
  "status" text NOT NULL,
  "is_production" boolean NOT NULL,
  "rolled_back" boolean NOT NULL,
  "caused_incident" boolean NOT NULL,
  "recovered_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX "deployment_facts_tenant_created_idx" ON "deployment_facts" ("tenant_id", "created_at");
--> statement-breakpoint
CREATE INDEX "deployment_facts_project_created_idx" ON "deployment_facts" ("project_id", "created_at");
--> statement-breakpoint
-- Good deployments (successful, production, not rolled back) in order: recoveries.
CREATE INDEX "deployment_facts_good_idx" ON "deployment_facts" ("project_id", "created_at") WHERE status = 'success' AND is_production AND NOT rolled_back;
--> statement-breakpoint
-- One row per merged pull request; first_commit_at falls back to the PR's created_at (as in 0019).
CREATE TABLE "change_lead_times" (
  "pull_request_id" uuid PRIMARY KEY REFERENCES "pull_requests" ("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL,
  "project_id" uuid NOT NULL,
  "merged_at" timestamptz NOT NULL,
  "first_commit_at" timestamptz NOT NULL,
  "first_commit_known" boolean NOT NULL,
  "deployment_id" uuid,
  "deployed_at" timestamptz,
  -- Stored as the double precision percentile_cont reads: computing it (a numeric) on every read
  -- doubled the time of a year's lead-time median.
  "lead_time_seconds" double precision
);
--> statement-breakpoint
CREATE INDEX "change_lead_times_tenant_deployed_idx" ON "change_lead_times" ("tenant_id", "deployed_at");
--> statement-breakpoint
CREATE INDEX "change_lead_times_tenant_merged_idx" ON "change_lead_times" ("tenant_id", "merged_at");
--> statement-breakpoint
CREATE INDEX "change_lead_times_project_merged_idx" ON "change_lead_times" ("project_id", "merged_at");
--> statement-breakpoint
CREATE INDEX "change_lead_times_deployment_idx" ON "change_lead_times" ("deployment_id") WHERE deployment_id IS NOT NULL;
--> statement-breakpoint
-- Locks are taken in tenant order (a webhook batch writes its rows ordered by tenant).
CREATE FUNCTION delivery_facts_lock(tenants uuid[]) RETURNS void LANGUAGE sql AS $$
  SELECT count(pg_advisory_xact_lock(hashtextextended('delivery_facts:' || t, 0)))
  FROM (SELECT DISTINCT t FROM unnest(tenants) AS u(t) ORDER BY t) s
$$;
--> statement-breakpoint
CREATE FUNCTION delivery_facts_lock_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || OLD.tenant_id, 0));
    RETURN OLD;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || NEW.tenant_id, 0));
  RETURN NEW;
END $$;
--> statement-breakpoint
-- The deployments an incident may name as its cause (cube_incidents): those whose externalId its
-- metadata names, and the successful production deployments of its project in the 24 h before it.
-- Its cause before and after a write is among these, taken before and after.
CREATE FUNCTION incident_cause_candidates(tenant uuid, project uuid, named text, opened timestamptz) RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
  SELECT d.id FROM "deployments" d WHERE named IS NOT NULL AND d.tenant_id = tenant AND d.external_id = named
  UNION
  SELECT d.id FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
$$;
--> statement-breakpoint
-- An incident's causing deployment: the rule of cube_incidents (migration 0007), for one incident.
-- PL/pgSQL so that its two index lookups are planned once per connection; inside the triggers the
-- view's two LATERAL subqueries were planned again on every write.
CREATE FUNCTION incident_cause(tenant uuid, project uuid, named text, opened timestamptz) RETURNS uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  cause uuid;
BEGIN
  IF named IS NOT NULL THEN
    SELECT d.id INTO cause FROM "deployments" d
    WHERE d.tenant_id = tenant AND d.external_id = named
    ORDER BY (d.project_id = project) DESC, d.created_at DESC, d.id
    LIMIT 1;
    IF cause IS NOT NULL THEN RETURN cause; END IF;
  END IF;
  SELECT d.id INTO cause FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
  ORDER BY d.created_at DESC, d.id
  LIMIT 1;
  RETURN cause;
END $$;
--> statement-breakpoint
-- Recomputes the facts of `candidates` (rules of migration 0020), then the recovery time of every
-- failed deployment whose next good (successful, production, not rolled back) deployment may have
-- changed: a deployment whose good-ness changed at time t (a row at `moved`, before or after a
-- write, or one whose rolled_back flag flipped here) can only be the recovery of the deployments of
-- its project from the latest good one before t (inclusive) up to t.
CREATE FUNCTION deployment_facts_refresh(candidates uuid[], moved_projects uuid[], moved_at timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
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
    WHERE d.id IN (SELECT unnest(candidates))
  ), prior AS MATERIALIZED (
    SELECT c.id, c.rolled_back, f.rolled_back AS was FROM computed c LEFT JOIN "deployment_facts" f ON f.deployment_id = c.id
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
    SELECT f.project_id, f.created_at FROM "deployment_facts" f WHERE f.deployment_id IN (SELECT unnest(flipped))
  ), reached AS (
    SELECT f.deployment_id AS id FROM points p
    LEFT JOIN LATERAL (
      SELECT g.created_at FROM "deployment_facts" g
      WHERE g.project_id = p.project_id AND g.status = 'success' AND g.is_production AND NOT g.rolled_back AND g.created_at < p.at
      ORDER BY g.created_at DESC LIMIT 1
    ) good ON true
    JOIN "deployment_facts" f ON f.project_id = p.project_id AND f.created_at >= COALESCE(good.created_at, '-infinity') AND f.created_at < p.at
  ), todo AS (
    SELECT unnest(candidates) AS id UNION SELECT id FROM reached
  )
  UPDATE "deployment_facts" f SET recovered_at = r.recovered_at
  FROM (
    SELECT x.deployment_id AS id,
           CASE WHEN x.is_production AND (x.status IN ('failure', 'error') OR x.rolled_back OR x.caused_incident) THEN (
             SELECT n.created_at FROM "deployment_facts" n
             WHERE n.project_id = x.project_id AND n.created_at > x.created_at AND n.status = 'success' AND n.is_production AND NOT n.rolled_back
             ORDER BY n.created_at LIMIT 1) END AS recovered_at
    FROM "deployment_facts" x WHERE x.deployment_id IN (SELECT id FROM todo)
  ) r
  WHERE f.deployment_id = r.id AND f.recovered_at IS DISTINCT FROM r.recovered_at;
END $$;
--> statement-breakpoint
-- Recomputes the lead-time row of these pull requests (rules of migration 0019): the first
-- successful production deployment of the project created at or after the merge (equal times: the
-- lowest id), the earliest linked commit. A PR no longer merged (or gone) loses its row.
CREATE FUNCTION change_lead_times_refresh(prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- PL/pgSQL, not SQL: its plan is kept between calls (a SQL function is planned on every call).
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
-- Every stored fact from scratch: the backfill below, and after a TRUNCATE (which fires no DELETE
-- trigger).
CREATE FUNCTION delivery_facts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "deployment_facts";
  DELETE FROM "change_lead_times";
  PERFORM deployment_facts_refresh(ARRAY(SELECT id FROM "deployments"), '{}', '{}');
  PERFORM change_lead_times_refresh(ARRAY(SELECT id FROM "pull_requests" WHERE merged_at IS NOT NULL));
END $$;
--> statement-breakpoint
CREATE FUNCTION delivery_facts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery_facts_rebuild();
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deployment written: its own outcomes; those of the deployments a rollback names; those of the
-- possible causes of the incidents that may name it (by externalId, or opened in its 24 h);
-- recoveries across its old and new place in time; the PRs it shipped and may now ship. Rows of a
-- tenant being deleted are skipped (their facts go with them). An update that changes none of the
-- columns the rules read (a webhook re-post) does nothing.
CREATE FUNCTION delivery_facts_deployments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  olds "deployments"[] := '{}';
  news "deployments"[] := '{}';
  candidates uuid[];
  prs uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(array_agg(n), '{}') INTO news FROM changed_new n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT coalesce(array_agg(o), '{}') INTO olds FROM changed_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id);
  ELSE
    SELECT coalesce(array_agg(o), '{}'), coalesce(array_agg(n), '{}') INTO olds, news
    FROM changed_old o JOIN changed_new n ON n.id = o.id
    WHERE (o.tenant_id, o.project_id, o.external_id, o.sha, o.environment, o.status, o.is_production, o.is_rollback, o.rollback_from_sha, o.created_at)
      IS DISTINCT FROM (n.tenant_id, n.project_id, n.external_id, n.sha, n.environment, n.status, n.is_production, n.is_rollback, n.rollback_from_sha, n.created_at);
  END IF;
  IF cardinality(olds) + cardinality(news) = 0 THEN RETURN NULL; END IF;
  PERFORM delivery_facts_lock(ARRAY(SELECT tenant_id FROM unnest(olds) UNION SELECT tenant_id FROM unnest(news)));

  WITH t AS (SELECT * FROM unnest(olds) UNION ALL SELECT * FROM unnest(news))
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO candidates FROM (
    SELECT n.id FROM unnest(news) n
    UNION ALL
    SELECT d.id FROM t JOIN "deployments" d ON d.project_id = t.project_id AND left(lower(d.sha), 7) = left(lower(t.rollback_from_sha), 7)
    WHERE t.is_rollback
    UNION ALL
    SELECT c.id FROM t JOIN "issues" i ON i.tenant_id = t.tenant_id AND (i.metadata ->> 'causedByDeployment') = t.external_id AND i.type = 'incident'
    CROSS JOIN LATERAL incident_cause_candidates(i.tenant_id, i.project_id, i.metadata ->> 'causedByDeployment', i.created_at) AS c(id)
    UNION ALL
    SELECT c.id FROM t JOIN "issues" i ON i.project_id = t.project_id AND i.type = 'incident'
      AND i.created_at >= t.created_at AND i.created_at <= t.created_at + interval '24 hours'
    CROSS JOIN LATERAL incident_cause_candidates(i.tenant_id, i.project_id, i.metadata ->> 'causedByDeployment', i.created_at) AS c(id)
  ) x;
  PERFORM deployment_facts_refresh(candidates,
    ARRAY(SELECT project_id FROM unnest(olds) UNION ALL SELECT project_id FROM unnest(news)),
    ARRAY(SELECT created_at FROM unnest(olds) UNION ALL SELECT created_at FROM unnest(news)));

  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO prs FROM (
    SELECT c.pull_request_id AS id FROM unnest(olds) o JOIN "change_lead_times" c ON c.deployment_id = o.id
    UNION ALL
    SELECT c.pull_request_id FROM unnest(news) n
    LEFT JOIN LATERAL (
      SELECT e.created_at FROM "deployments" e
      WHERE e.project_id = n.project_id AND e.status = 'success' AND COALESCE(e.is_production, e.environment = 'production')
        AND (e.created_at, e.id) < (n.created_at, n.id)
      ORDER BY e.created_at DESC, e.id DESC LIMIT 1
    ) prev ON true
    JOIN "change_lead_times" c ON c.project_id = n.project_id AND c.merged_at >= COALESCE(prev.created_at, '-infinity') AND c.merged_at <= n.created_at
    WHERE n.status = 'success' AND COALESCE(n.is_production, n.environment = 'production')
  ) x;
  PERFORM change_lead_times_refresh(prs);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An incident written: the outcomes of its possible causes before and after (a non-incident issue
-- does nothing; neither does an update of its state or close time).
CREATE FUNCTION delivery_facts_incidents_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  olds "issues"[] := '{}';
  news "issues"[] := '{}';
  candidates uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(array_agg(n), '{}') INTO news FROM changed_new n WHERE n.type = 'incident';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT coalesce(array_agg(o), '{}') INTO olds FROM changed_old o WHERE o.type = 'incident' AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id);
  ELSE
    SELECT coalesce(array_agg(o), '{}'), coalesce(array_agg(n), '{}') INTO olds, news
    FROM changed_old o JOIN changed_new n ON n.id = o.id
    WHERE (o.type = 'incident' OR n.type = 'incident')
      AND (o.tenant_id, o.project_id, o.type, o.metadata ->> 'causedByDeployment', o.created_at)
        IS DISTINCT FROM (n.tenant_id, n.project_id, n.type, n.metadata ->> 'causedByDeployment', n.created_at);
  END IF;
  IF cardinality(olds) + cardinality(news) = 0 THEN RETURN NULL; END IF;
  PERFORM delivery_facts_lock(ARRAY(SELECT tenant_id FROM unnest(olds) UNION SELECT tenant_id FROM unnest(news)));
  SELECT coalesce(array_agg(DISTINCT c.id), '{}') INTO candidates
  FROM (SELECT * FROM unnest(olds) UNION ALL SELECT * FROM unnest(news)) i
  CROSS JOIN LATERAL incident_cause_candidates(i.tenant_id, i.project_id, i.metadata ->> 'causedByDeployment', i.created_at) AS c(id);
  PERFORM deployment_facts_refresh(candidates, '{}', '{}');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A pull request inserted merged, or whose project, merge or creation time changed (a deleted PR's
-- row goes with it: nothing else depends on it).
CREATE FUNCTION delivery_facts_pull_requests_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prs uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(array_agg(n.id), '{}') INTO prs FROM changed_new n WHERE n.merged_at IS NOT NULL;
  ELSE
    SELECT coalesce(array_agg(n.id), '{}') INTO prs FROM changed_old o JOIN changed_new n ON n.id = o.id
    WHERE (o.project_id, o.merged_at, o.created_at) IS DISTINCT FROM (n.project_id, n.merged_at, n.created_at);
  END IF;
  IF cardinality(prs) = 0 THEN RETURN NULL; END IF;
  PERFORM delivery_facts_lock(ARRAY(SELECT DISTINCT tenant_id FROM "pull_requests" WHERE id IN (SELECT unnest(prs))));
  PERFORM change_lead_times_refresh(prs);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A PR's commits linked or unlinked (also when a commit is deleted: the link goes by cascade), or a
-- commit's time changed: the first commit of its PRs.
CREATE FUNCTION delivery_facts_commits_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prs uuid[];
BEGIN
  IF TG_TABLE_NAME = 'commits' THEN
    SELECT coalesce(array_agg(DISTINCT prc.pull_request_id), '{}') INTO prs
    FROM changed_old o JOIN changed_new n ON n.id = o.id JOIN "pull_request_commits" prc ON prc.commit_id = n.id
    WHERE o.committed_at IS DISTINCT FROM n.committed_at;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT coalesce(array_agg(DISTINCT n.pull_request_id), '{}') INTO prs FROM changed_new n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT coalesce(array_agg(DISTINCT o.pull_request_id), '{}') INTO prs FROM changed_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id);
  ELSE
    SELECT coalesce(array_agg(DISTINCT id), '{}') INTO prs FROM (SELECT pull_request_id AS id FROM changed_old UNION ALL SELECT pull_request_id FROM changed_new) x;
  END IF;
  IF cardinality(prs) = 0 THEN RETURN NULL; END IF;
  PERFORM delivery_facts_lock(ARRAY(SELECT DISTINCT tenant_id FROM "pull_requests" WHERE id IN (SELECT unnest(prs))));
  PERFORM change_lead_times_refresh(prs);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock BEFORE INSERT OR DELETE ON deployments FOR EACH ROW EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock_update BEFORE UPDATE ON deployments FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.project_id, OLD.external_id, OLD.sha, OLD.environment, OLD.status, OLD.is_production, OLD.is_rollback, OLD.rollback_from_sha, OLD.created_at)
    IS DISTINCT FROM (NEW.tenant_id, NEW.project_id, NEW.external_id, NEW.sha, NEW.environment, NEW.status, NEW.is_production, NEW.is_rollback, NEW.rollback_from_sha, NEW.created_at))
  EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_insert AFTER INSERT ON deployments REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_deployments_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_update AFTER UPDATE ON deployments REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_deployments_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_delete AFTER DELETE ON deployments REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_deployments_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_truncate AFTER TRUNCATE ON deployments FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_truncated();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock BEFORE INSERT ON issues FOR EACH ROW WHEN (NEW.type = 'incident') EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock_update BEFORE UPDATE ON issues FOR EACH ROW
  WHEN ((OLD.type = 'incident' OR NEW.type = 'incident')
    AND (OLD.tenant_id, OLD.project_id, OLD.type, OLD.metadata ->> 'causedByDeployment', OLD.created_at)
      IS DISTINCT FROM (NEW.tenant_id, NEW.project_id, NEW.type, NEW.metadata ->> 'causedByDeployment', NEW.created_at))
  EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock_delete BEFORE DELETE ON issues FOR EACH ROW WHEN (OLD.type = 'incident') EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_insert AFTER INSERT ON issues REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_incidents_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_update AFTER UPDATE ON issues REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_incidents_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_delete AFTER DELETE ON issues REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_incidents_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_truncate AFTER TRUNCATE ON issues FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_truncated();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock BEFORE INSERT ON pull_requests FOR EACH ROW WHEN (NEW.merged_at IS NOT NULL) EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock_update BEFORE UPDATE ON pull_requests FOR EACH ROW
  WHEN ((OLD.project_id, OLD.merged_at, OLD.created_at) IS DISTINCT FROM (NEW.project_id, NEW.merged_at, NEW.created_at))
  EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
-- A deleted PR's row goes by cascade; the lock is taken first all the same, as for every write
-- that changes these facts.
CREATE TRIGGER delivery_facts_lock_delete BEFORE DELETE ON pull_requests FOR EACH ROW EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_insert AFTER INSERT ON pull_requests REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_pull_requests_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_update AFTER UPDATE ON pull_requests REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_pull_requests_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock BEFORE INSERT OR UPDATE OR DELETE ON pull_request_commits FOR EACH ROW EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_insert AFTER INSERT ON pull_request_commits REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_commits_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_update AFTER UPDATE ON pull_request_commits REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_commits_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_delete AFTER DELETE ON pull_request_commits REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_commits_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_truncate AFTER TRUNCATE ON pull_request_commits FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_truncated();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_lock_update BEFORE UPDATE ON commits FOR EACH ROW
  WHEN (OLD.committed_at IS DISTINCT FROM NEW.committed_at) EXECUTE FUNCTION delivery_facts_lock_row();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_update AFTER UPDATE ON commits REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_commits_changed();
--> statement-breakpoint
CREATE TRIGGER delivery_facts_truncate AFTER TRUNCATE ON commits FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_truncated();
--> statement-breakpoint
SELECT delivery_facts_rebuild();
--> statement-breakpoint
-- The views read the stored facts; their columns are those of migrations 0019 and 0020.
-- Without environment, sha or is_rollback in a query, the join to deployments is removed (a left
-- join on its primary key), and the measures read deployment_facts alone.
CREATE OR REPLACE VIEW "cube_deployments" AS
SELECT f.tenant_id, f.deployment_id AS id, f.project_id, p.owning_team_id AS team_id, d.environment, f.status, d.sha, d.is_rollback,
       f.created_at, f.is_production,
       f.status IN ('success', 'failure', 'error') AS is_finished,
       f.rolled_back, f.caused_incident,
       f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS is_failed,
       f.recovered_at
FROM "deployment_facts" f
LEFT JOIN "deployments" d ON d.id = f.deployment_id
LEFT JOIN "projects" p ON p.id = f.project_id;
--> statement-breakpoint
DROP VIEW "cube_deployment_flags";
--> statement-breakpoint
DROP VIEW "cube_change_lead_times";
--> statement-breakpoint
CREATE VIEW "cube_change_lead_times" AS
SELECT c.tenant_id, c.pull_request_id AS id, c.project_id, p.owning_team_id AS team_id, c.merged_at, c.first_commit_at,
       c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds
FROM "change_lead_times" c
LEFT JOIN "projects" p ON p.id = c.project_id;
