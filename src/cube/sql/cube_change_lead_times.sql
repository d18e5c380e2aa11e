-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- The PR's AI attribution level and evidence (docs/ai-attribution.md), appended; the left joins are removed when not read.
-- The level is the stored one (pull_request_ai_levels, migration 0080), copied beside the row
-- (change_lead_times.ai_attribution, migration 0084); the evidence is computed on read.
-- The shipping deployment's own flags (shipping_finished, shipping_failed) are cube_deployments'
-- (the rule of deployments.change_failure_rate), read through one left join on its key rather than
-- an EXISTS per PR and measure: the AI impact page's shipping change failure rate reads them for
-- every merged PR of a window (three subqueries per row were most of its time).
-- depends-on: pull_request_attribution, cube_deployments
CREATE OR REPLACE VIEW "cube_change_lead_times" AS
SELECT c.tenant_id, c.pull_request_id AS id, c.project_id, p.owning_team_id AS team_id, c.merged_at, c.first_commit_at,
       c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds,
       c.deployed_at IS NOT NULL AS is_deployed,
       p.project_key, pr.number, pr.title, pr.author_username, pr.created_at AS opened_at,
       d.external_id AS deployment_external_id,
       c.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence,
       COALESCE(sd.is_finished_production, false) AS shipping_finished,
       COALESCE(sd.is_failed, false) AS shipping_failed,
       -- The merged PR's own values, stored (migration 0084): pull_requests' per-PR values of the
       -- same names, by the same rules (the pr_*_seconds functions), read here without joining the
       -- PR (the AI impact page's reads: docs/ai-impact.md "Queries").
       c.cycle_time_seconds, c.coding_time_seconds, c.pickup_time_seconds, c.review_time_seconds, c.deploy_time_seconds, c.pr_size,
       -- A row whose values are not stored yet (cycle_time_seconds empty: noted since an upgrade,
       -- not yet caught up) is in none of them, as the hidden measures leave it out of their n.
       c.coding_time_seconds IS NOT NULL AS has_coding_time,
       c.review_time_seconds IS NOT NULL AS is_reviewed,
       c.cycle_time_seconds IS NOT NULL AND c.review_time_seconds IS NULL AS merged_without_review,
       c.cycle_time_seconds IS NOT NULL AND c.reverted_because IS NOT NULL AS is_reverted
FROM "change_lead_times" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "pull_requests" pr ON pr.id = c.pull_request_id
LEFT JOIN "deployments" d ON d.id = c.deployment_id
LEFT JOIN "pull_request_attribution" a ON a.pull_request_id = c.pull_request_id
LEFT JOIN "cube_deployments" sd ON sd.id = c.deployment_id;
