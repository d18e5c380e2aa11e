-- Created by migration 0068_pr_phases; since then defined by this file (docs/sql-source.md).
CREATE OR REPLACE VIEW "cube_pull_request_reviews" AS
SELECT r.tenant_id, r.project_id::text || ':' || r.review_id AS id, r.project_id, p.owning_team_id AS team_id,
       r.pull_request_number AS number, r.reviewer, r.state, r.submitted_at,
       -- A review given: by someone other than the PR's author, not a bot (the first review's rule).
       NOT r.reviewer_is_bot AND lower(r.reviewer) IS DISTINCT FROM lower(pr.author_username) AS is_counted,
       p.project_key, pr.title, pr.author_username
FROM "pull_request_reviews" r
LEFT JOIN "projects" p ON p.id = r.project_id
LEFT JOIN "pull_requests" pr ON pr.project_id = r.project_id AND pr.number = r.pull_request_number;
