-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- Reverted within 30 days (METRICS.md "Rework"; docs/pr-phases.md "Reverted, stored", migration 0083):
-- the first later merged PR of the project that reverts this one within 30 days of its merge, by its
-- title (Revert "<title>") or by a commit of it naming this PR's merge commit or one of its commits
-- ("This reverts commit <sha>"), earliest merge first; reverted_because says which and why, and
-- reverted_by keeps the reverting PR so that its later change or deletion recomputes this row
-- (delivery_facts_catch_up adds the PRs a noted PR may revert or had reverted).
CREATE OR REPLACE FUNCTION change_lead_times_refresh(prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(prs) = 0 THEN RETURN; END IF;
  WITH src AS MATERIALIZED (
    SELECT pr.id, pr.tenant_id, pr.project_id, pr.merged_at,
           COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at, fc.first_commit_at IS NOT NULL AS first_commit_known,
           dep.id AS deployment_id, dep.created_at AS deployed_at,
           extract(epoch FROM dep.created_at - COALESCE(fc.first_commit_at, pr.created_at))::double precision AS lead_time_seconds,
           rv.why AS reverted_because, rv.id AS reverted_by,
           -- The merged PR's own values the AI impact page compares (migration 0084, docs/ai-impact.md
           -- "Queries"), stored beside its lead time so that a window's comparison reads this table
           -- alone: the rules are the pr_*_seconds functions cube_pull_requests computes them with.
           pr_cycle_seconds(pr.merged_at, pr.created_at) AS cycle_time_seconds,
           pr_coding_seconds(pr.merged_at, fc.first_commit_at IS NOT NULL, COALESCE(fc.first_commit_at, pr.created_at), pr.ready_at, pr.created_at) AS coding_time_seconds,
           pr_pickup_seconds(pr.first_review_at, pr.merged_at, pr.ready_at, pr.created_at) AS pickup_time_seconds,
           pr_review_seconds(pr.first_review_at, pr.merged_at) AS review_time_seconds,
           pr_deploy_seconds(pr.merged_at, dep.created_at) AS deploy_time_seconds,
           pr.additions + pr.deletions AS pr_size,
           -- The stored level (pull_request_ai_levels), kept equal by pull_request_ai_levels_refresh,
           -- which the same catch-up runs after this under the tenant's lock.
           lv.ai_attribution
    FROM "pull_requests" pr
    LEFT JOIN "pull_request_ai_levels" lv ON lv.pull_request_id = pr.id
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
    LEFT JOIN LATERAL (
      SELECT w.id, w.why FROM (
        SELECT r.id, r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
        FROM "pull_requests" r
        WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
          AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
        UNION ALL
        SELECT r.id, r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
        FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
              UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
        JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
        JOIN "pull_request_commits" rc ON rc.commit_id = c.id
        JOIN "pull_requests" r ON r.id = rc.pull_request_id
        WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
      ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1
    ) rv ON true
    WHERE pr.id IN (SELECT unnest(prs)) AND pr.merged_at IS NOT NULL
  ), gone AS (
    DELETE FROM "change_lead_times" c
    WHERE c.pull_request_id IN (SELECT unnest(prs)) AND NOT EXISTS (SELECT 1 FROM src WHERE src.id = c.pull_request_id)
  )
  INSERT INTO "change_lead_times" AS c (pull_request_id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds, reverted_because, reverted_by,
    cycle_time_seconds, coding_time_seconds, pickup_time_seconds, review_time_seconds, deploy_time_seconds, pr_size, ai_attribution)
  SELECT id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds, reverted_because, reverted_by,
    cycle_time_seconds, coding_time_seconds, pickup_time_seconds, review_time_seconds, deploy_time_seconds, pr_size, ai_attribution FROM src
  ON CONFLICT (pull_request_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
    merged_at = EXCLUDED.merged_at, first_commit_at = EXCLUDED.first_commit_at, first_commit_known = EXCLUDED.first_commit_known,
    deployment_id = EXCLUDED.deployment_id, deployed_at = EXCLUDED.deployed_at, lead_time_seconds = EXCLUDED.lead_time_seconds,
    reverted_because = EXCLUDED.reverted_because, reverted_by = EXCLUDED.reverted_by,
    cycle_time_seconds = EXCLUDED.cycle_time_seconds, coding_time_seconds = EXCLUDED.coding_time_seconds, pickup_time_seconds = EXCLUDED.pickup_time_seconds,
    review_time_seconds = EXCLUDED.review_time_seconds, deploy_time_seconds = EXCLUDED.deploy_time_seconds, pr_size = EXCLUDED.pr_size, ai_attribution = EXCLUDED.ai_attribution
  WHERE (c.tenant_id, c.project_id, c.merged_at, c.first_commit_at, c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds, c.reverted_because, c.reverted_by,
         c.cycle_time_seconds, c.coding_time_seconds, c.pickup_time_seconds, c.review_time_seconds, c.deploy_time_seconds, c.pr_size, c.ai_attribution)
    IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.merged_at, EXCLUDED.first_commit_at, EXCLUDED.first_commit_known, EXCLUDED.deployment_id, EXCLUDED.deployed_at, EXCLUDED.lead_time_seconds, EXCLUDED.reverted_because, EXCLUDED.reverted_by,
         EXCLUDED.cycle_time_seconds, EXCLUDED.coding_time_seconds, EXCLUDED.pickup_time_seconds, EXCLUDED.review_time_seconds, EXCLUDED.deploy_time_seconds, EXCLUDED.pr_size, EXCLUDED.ai_attribution);
END $$;
-- Every stored merged PR noted, each time this file is applied: the catch-up then recomputes them all
-- with the rule just installed, and since the notes are written in the same transaction no catch-up
-- can take them with an older rule (migration 0084's upgrade, when instances of the last release
-- still run their catch-ups). A change of a rule this function stores (the pr_*_seconds functions)
-- must therefore come with a change of this file, for instance the version below. A fresh database
-- has no rows here.
-- Stored values' rule version: 1 (migration 0084).
INSERT INTO "delivery_facts_pending" (tenant_id, kind, id)
SELECT c.tenant_id, 'p', c.pull_request_id FROM "change_lead_times" c;
