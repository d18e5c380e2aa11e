-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
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
       (ai.pull_request_id IS NOT NULL
        OR (cardinality(pr.labels) > 0 AND EXISTS (SELECT 1 FROM unnest(pr.labels) AS label WHERE lower(label) = 'ai-assisted'))) AS ai_assisted,
       pr.merged_at IS NOT NULL AS is_merged,
       extract(epoch FROM pr.merged_at - pr.created_at)::double precision AS cycle_time_seconds,
       pr.title,
       p.project_key,
       -- Why a PR is AI-assisted, each part of ai_assisted's rule on its own (pull_request_ai_assisted, 0003).
       EXISTS (SELECT 1 FROM "ai_session_links" l WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id) AS ai_via_session,
       EXISTS (SELECT 1 FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
               WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND cardinality(c.ai_coauthors) > 0) AS ai_via_trailer,
       EXISTS (SELECT 1 FROM unnest(pr.labels) AS label WHERE lower(label) = 'ai-assisted') AS ai_via_label
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN (
  SELECT tenant_id, pull_request_id FROM "ai_session_links" WHERE pull_request_id IS NOT NULL
  UNION
  SELECT prc.tenant_id, prc.pull_request_id
  FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
  WHERE cardinality(c.ai_coauthors) > 0
) ai ON ai.tenant_id = pr.tenant_id AND ai.pull_request_id = pr.id;
