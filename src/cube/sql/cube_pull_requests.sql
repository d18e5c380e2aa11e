-- Defined by versioned migrations up to 0068_pr_phases; since then by this file (docs/sql-source.md).
-- AI attribution (docs/ai-attribution.md): ai_assisted (level high or medium), its signals, the
-- level and its evidence come from pull_request_attribution through a left join on the PR's key,
-- which PostgreSQL removes when a query names none of its columns. (One scalar subquery per column
-- would expand the whole view once per column: measured at 4x the planning time of bi.team_month.)
-- The level itself (ai_attribution) is read from the stored pull_request_ai_levels, computed from the
-- same view when its inputs are written (migration 0080); its evidence is still computed on read.
-- depends-on: pull_request_attribution, pr_cycle_seconds, pr_coding_seconds, pr_pickup_seconds, pr_review_seconds, pr_deploy_seconds
CREATE OR REPLACE VIEW "cube_pull_requests" AS
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.number, pr.state, pr.draft, pr.author_username,
       pr.additions, pr.deletions,
       pr.additions + pr.deletions AS change_volume,
       CASE WHEN pr.additions + pr.deletions <= 10 THEN 1
            WHEN pr.additions + pr.deletions <= 50 THEN 2
            WHEN pr.additions + pr.deletions <= 250 THEN 3
            WHEN pr.additions + pr.deletions <= 1000 THEN 5
            ELSE 8 END AS change_effort_units,
       pr.created_at, pr.merged_at, pr.closed_at,
       a.ai_assisted AS ai_assisted,
       pr.merged_at IS NOT NULL AS is_merged,
       pr_cycle_seconds(pr.merged_at, pr.created_at) AS cycle_time_seconds,
       pr.title,
       p.project_key,
       a.ai_via_session AS ai_via_session,
       a.ai_via_trailer AS ai_via_trailer,
       a.ai_via_label AS ai_via_label,
       -- PR phases (METRICS.md "PR phases", docs/pr-phases.md): each value empty when an end is
       -- unknown; the flags are the rows each count measure counts (its n).
       CASE WHEN pr.merged_at IS NOT NULL THEN COALESCE(pr.ready_at, pr.created_at) ELSE pr.ready_at END AS ready_at,
       CASE WHEN pr.merged_at IS NULL OR pr.first_review_at <= pr.merged_at THEN pr.first_review_at END AS first_review_at,
       CASE WHEN clt.first_commit_known THEN clt.first_commit_at END AS first_commit_at,
       clt.deployed_at,
       COALESCE(pr.merged_at IS NOT NULL AND clt.first_commit_known, false) AS has_coding_time,
       COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS is_reviewed,
       pr.merged_at IS NOT NULL AND NOT COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS merged_without_review,
       COALESCE(pr.merged_at IS NOT NULL AND clt.deployed_at IS NOT NULL, false) AS is_deployed,
       -- The phases' rules are the pr_*_seconds functions (inlined), which change_lead_times_refresh
       -- also stores per merged PR for the AI impact page (migration 0084).
       pr_coding_seconds(pr.merged_at, clt.first_commit_known, clt.first_commit_at, pr.ready_at, pr.created_at) AS coding_time_seconds,
       pr_pickup_seconds(pr.first_review_at, pr.merged_at, pr.ready_at, pr.created_at) AS pickup_time_seconds,
       pr_review_seconds(pr.first_review_at, pr.merged_at) AS review_time_seconds,
       pr_deploy_seconds(pr.merged_at, clt.deployed_at) AS deploy_time_seconds,
       CASE WHEN pr.merged_at IS NOT NULL THEN pr.additions + pr.deletions END AS pr_size,
       (SELECT d.external_id FROM "deployments" d WHERE d.id = clt.deployment_id) AS deployment_external_id,
       -- Reverted within 30 days by a later merged PR of the project (METRICS.md "Rework"): stored per
       -- merged PR by change_lead_times_refresh, which holds the rule (migration 0083).
       COALESCE(pr.merged_at IS NOT NULL AND clt.reverted_because IS NOT NULL, false) AS is_reverted,
       CASE WHEN pr.merged_at IS NOT NULL THEN clt.reverted_because END AS reverted_because,
       lv.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence,
       a.ai_via_telemetry_commit AS ai_via_telemetry_commit,
       a.ai_via_vendor_commit AS ai_via_vendor_commit,
       a.ai_via_branch AS ai_via_branch,
       a.ai_via_bot AS ai_via_bot
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "pull_request_attribution" a ON a.pull_request_id = pr.id
-- The stored level (pull_request_ai_levels, kept by the deferred notes: docs/ai-attribution.md "The
-- stored level"): filtering on it reads a narrow table instead of computing the view for every PR.
LEFT JOIN "pull_request_ai_levels" lv ON lv.pull_request_id = pr.id
-- The stored facts of a merged PR (first commit, deploying deployment): a left join on its key, dropped when not read.
LEFT JOIN "change_lead_times" clt ON clt.pull_request_id = pr.id;
