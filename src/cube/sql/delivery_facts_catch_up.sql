-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
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
  -- Reverted within 30 days (migration 0083, docs/pr-phases.md "Reverted, stored"): besides the PRs
  -- themselves, those a noted PR had reverted (its stored reverted_by), and those it may revert now: the
  -- PRs of its project merged in the 30 days before its merge, when it is a revert by title or holds a
  -- commit that reverts one (candidates only; the rule itself is change_lead_times_refresh's).
  prs := prs || ARRAY(
    SELECT l.pull_request_id FROM "change_lead_times" l WHERE l.reverted_by = ANY (prs)
    UNION
    SELECT x.id FROM "pull_requests" r
    JOIN "pull_requests" x ON x.project_id = r.project_id AND x.merged_at >= r.merged_at - interval '30 days' AND x.merged_at < r.merged_at
    WHERE r.id = ANY (prs) AND r.merged_at IS NOT NULL
      AND (r.title LIKE 'Revert "%'
        OR EXISTS (SELECT 1 FROM "pull_request_commits" rc JOIN "commits" c ON c.id = rc.commit_id WHERE rc.pull_request_id = r.id AND c.reverts_sha IS NOT NULL)));
  PERFORM change_lead_times_refresh(prs);

  -- The stored AI attribution level (pull_request_ai_levels; the kinds a, b, v, t, w, y are noted by
  -- ai_attribution_note, docs/ai-attribution.md "The stored level"): the PRs whose level may change.
  WITH t AS (SELECT * FROM unnest(taken) WHERE kind IN ('a', 'p', 'b', 'c', 'v', 't', 'w', 'y'))
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO prs FROM (
    SELECT t.id FROM t WHERE t.kind IN ('a', 'p')
    UNION ALL
    SELECT prc.pull_request_id FROM t JOIN "pull_request_commits" prc ON prc.commit_id = t.id WHERE t.kind IN ('b', 'c')
    UNION ALL
    SELECT prc.pull_request_id FROM (SELECT DISTINCT tenant_id, named FROM t WHERE t.kind = 'v') v
    JOIN "commits" c ON c.tenant_id = v.tenant_id AND c.sha = v.named
    JOIN "pull_request_commits" prc ON prc.commit_id = c.id
    UNION ALL
    SELECT pr.id FROM (SELECT DISTINCT tenant_id FROM t WHERE t.kind = 't') s
    JOIN "pull_requests" pr ON pr.tenant_id = s.tenant_id AND cardinality(pr.labels) > 0
    UNION ALL
    -- The PRs of the person's code-host logins, and of the login removed or replaced.
    SELECT pr.id FROM (
      SELECT w.tenant_id, w.named AS login FROM t w WHERE w.kind = 'w' AND w.named IS NOT NULL
      UNION SELECT w.tenant_id, pi.value FROM t w
      JOIN "person_identities" pi ON pi.tenant_id = w.tenant_id AND pi.person_id = w.id AND pi.kind = 'codehost_username'
      WHERE w.kind = 'w') k
    JOIN "pull_requests" pr ON pr.tenant_id = k.tenant_id AND lower(pr.author_username) = k.login
    UNION ALL
    SELECT prc.pull_request_id FROM (SELECT DISTINCT tenant_id, created_at FROM t WHERE t.kind = 'y') y
    JOIN "commits" c ON c.tenant_id = y.tenant_id AND c.committed_at >= y.created_at AND c.committed_at < y.created_at + interval '1 day'
    JOIN "pull_request_commits" prc ON prc.commit_id = c.id
  ) x;
  PERFORM pull_request_ai_levels_refresh(prs);
  RETURN cardinality(taken);
END $$;
