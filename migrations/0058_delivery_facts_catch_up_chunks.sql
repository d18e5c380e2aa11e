-- A tenant's backlog of notes is caught up in bounded chunks that commit as they go (issue 43,
-- point 6; docs/write-path.md). Until now delivery_facts_catch_up took every note of the tenant in
-- one transaction: 120,401 notes took 11-15 minutes on one core, every reader of the tenant waited
-- on its lock all along, and a killed instance left the statement running in PostgreSQL (and, when
-- it finally failed or was cancelled, every note of it to do again).
--
-- * Notes get an order: seq, from an identity sequence (a note inserted earlier has a lower seq).
-- * delivery_facts_catch_up(tenant, wait_ms, max_notes, up_to) takes at most max_notes notes, the
--   oldest first, and only notes with seq <= up_to when given, recomputes what they may have changed
--   (the same statements as 0057) and returns how many it took. The caller commits each chunk
--   (src/cube/deliveryFacts.ts runs one chunk per statement) and calls again while a chunk was full.
--   Chunks are safe in any number: a chunk recomputes from the current rows what its notes may have
--   changed, exactly as a catch-up did while writes went on (the notes left are those of writes the
--   chunk's snapshot did or did not see; either way their own chunk recomputes them later).
-- * A reader notes the newest seq it can see before it catches up (every note committed before it
--   began has a seq no higher) and runs chunks up to that seq: it waits on the tenant's lock for at
--   most the chunk in progress, then runs the rest itself; notes written after it began are left for
--   the next reader or the schedule, so a stream of writes cannot keep a reader catching up.
ALTER TABLE "delivery_facts_pending" ADD COLUMN "seq" bigint GENERATED ALWAYS AS IDENTITY;
--> statement-breakpoint
DROP INDEX "delivery_facts_pending_tenant_idx";
--> statement-breakpoint
CREATE INDEX "delivery_facts_pending_tenant_idx" ON "delivery_facts_pending" ("tenant_id", "seq");
--> statement-breakpoint
DROP FUNCTION delivery_facts_catch_up(uuid, integer);
--> statement-breakpoint
CREATE FUNCTION delivery_facts_catch_up(tenant uuid, wait_ms integer DEFAULT NULL, max_notes integer DEFAULT 2000, up_to bigint DEFAULT NULL)
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
ALTER FUNCTION delivery_facts_catch_up(uuid, integer, integer, bigint) SET plan_cache_mode = force_generic_plan;
