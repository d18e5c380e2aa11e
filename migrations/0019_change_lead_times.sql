CREATE INDEX "deployments_project_production_success_idx" ON "deployments" USING btree ("project_id","created_at","id") WHERE status = 'success' AND COALESCE(is_production, environment = 'production');--> statement-breakpoint
CREATE INDEX "pull_requests_project_merged_idx" ON "pull_requests" USING btree ("project_id","merged_at") WHERE merged_at IS NOT NULL;--> statement-breakpoint
-- DORA lead time for changes (METRICS.md): one row per merged pull request. A change starts at the
-- PR's first commit (its created_at when no commit is linked) and ends at the first successful
-- production deployment of the same project created at or after the merge (equal times: the
-- lowest id). Driven from the deployments: a deployment ships the PRs merged after the previous
-- successful production deployment of its project and at or before it, so a filter on deployed_at
-- reaches the deployments scan (a one-month query reads one month of deployments), and each
-- deployment reads its PRs by range on pull_requests_project_merged_idx. "After" is ">= previous
-- + 1 µs" (timestamps have microseconds), so both bounds are index conditions; with no previous
-- one it is -infinity. PRs never followed by such a deployment are the second branch, with
-- deployed_at, deployment_id and lead_time_seconds NULL: no lead time, undeployed.
CREATE VIEW "cube_change_lead_times" AS
SELECT d.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.merged_at,
       COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at,
       fc.first_commit_at IS NOT NULL AS first_commit_known,
       d.id AS deployment_id, d.created_at AS deployed_at,
       extract(epoch FROM d.created_at - COALESCE(fc.first_commit_at, pr.created_at)) AS lead_time_seconds
FROM "deployments" d
CROSS JOIN LATERAL (
  SELECT COALESCE((
    SELECT e.created_at + interval '1 microsecond' FROM "deployments" e
    WHERE e.project_id = d.project_id AND e.status = 'success' AND COALESCE(e.is_production, e.environment = 'production')
      AND (e.created_at, e.id) < (d.created_at, d.id)
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT 1
  ), '-infinity') AS merged_from
) prev
JOIN "pull_requests" pr ON pr.tenant_id = d.tenant_id AND pr.project_id = d.project_id
  AND pr.merged_at >= prev.merged_from AND pr.merged_at <= d.created_at
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN LATERAL (
  SELECT min(c.committed_at) AS first_commit_at
  FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
  WHERE prc.pull_request_id = pr.id
) fc ON true
WHERE d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
UNION ALL
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.merged_at,
       COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at,
       fc.first_commit_at IS NOT NULL AS first_commit_known,
       NULL::uuid AS deployment_id, NULL::timestamptz AS deployed_at, NULL::numeric AS lead_time_seconds
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN LATERAL (
  SELECT min(c.committed_at) AS first_commit_at
  FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
  WHERE prc.pull_request_id = pr.id
) fc ON true
WHERE pr.merged_at IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM "deployments" d
  WHERE d.project_id = pr.project_id AND d.created_at >= pr.merged_at AND d.status = 'success'
    AND COALESCE(d.is_production, d.environment = 'production')
);
