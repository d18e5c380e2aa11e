-- Defined by versioned migrations up to 0007_cube_views; since then by this file (docs/sql-source.md).
-- The commit's AI attribution level and evidence (docs/ai-attribution.md), appended.
-- depends-on: commit_attribution
CREATE OR REPLACE VIEW "cube_commits" AS
SELECT c.tenant_id, c.id, c.project_id, p.owning_team_id AS team_id, c.sha, c.branch, c.author_username, c.author_email,
       c.committed_at, cardinality(c.ai_coauthors) > 0 AS has_ai_coauthor,
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "commit_attribution" a ON a.commit_id = c.id;
