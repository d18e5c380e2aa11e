-- One repository is one project, whatever source tells about it (issue 38, docs/activity.md
-- "One project per repository"). Until now a project was unique per (tenant, provider, key):
-- webhook deployments and issues made a `manual` project, the code-host application a `codehost`
-- one of the same `owner/repo`, and lead time, rollbacks and incident attribution, which match
-- within a project, never met across them. Keys are compared case-insensitively, as the code host
-- names repositories.
--
-- Each group of projects of one tenant and lower(key) keeps one: the code host's (its spelling
-- of the key is the repository's), else the oldest. Every row of the others moves to it, then they
-- are deleted and the key is made unique. Row updates fire the delivery-facts and rollup triggers,
-- so derived rows (deployment_facts, change_lead_times, cube_rollup_changes) follow.
CREATE TEMP TABLE project_merge ON COMMIT DROP AS
SELECT id AS old_id, first_value(id) OVER (
  PARTITION BY tenant_id, lower(project_key) ORDER BY (provider = 'codehost') DESC, created_at, id
) AS new_id
FROM projects;
--> statement-breakpoint
DELETE FROM project_merge WHERE old_id = new_id;
--> statement-breakpoint
-- The survivor keeps its owner, else takes the first owner among the others; a sync switched off
-- on any of them stays off; its issue counter never goes back.
UPDATE projects s SET
  owning_team_id = COALESCE(s.owning_team_id, g.owner),
  issue_seq = GREATEST(s.issue_seq, g.seq),
  sync_issues = s.sync_issues AND g.sync_issues,
  sync_pull_requests = s.sync_pull_requests AND g.sync_pull_requests,
  sync_deployments = s.sync_deployments AND g.sync_deployments
FROM (
  SELECT m.new_id, (array_agg(d.owning_team_id ORDER BY d.created_at, d.id) FILTER (WHERE d.owning_team_id IS NOT NULL))[1] AS owner,
    max(d.issue_seq) AS seq, bool_and(d.sync_issues) AS sync_issues, bool_and(d.sync_pull_requests) AS sync_pull_requests,
    bool_and(d.sync_deployments) AS sync_deployments
  FROM project_merge m JOIN projects d ON d.id = m.old_id GROUP BY m.new_id
) g
WHERE s.id = g.new_id;
--> statement-breakpoint
-- A pull request number or a commit sha twice in one repository is the same PR or commit stored
-- under two spellings of the key (only the code host writes them, and only a missed rename can
-- give it two spellings): the survivor's row stays, the other goes with its links.
DELETE FROM pull_requests WHERE id IN (
  SELECT id FROM (
    SELECT pr.id, row_number() OVER (PARTITION BY COALESCE(m.new_id, pr.project_id), pr.number ORDER BY (m.old_id IS NULL) DESC, pr.updated_at DESC, pr.id) AS n
    FROM pull_requests pr LEFT JOIN project_merge m ON m.old_id = pr.project_id
    WHERE pr.project_id IN (SELECT old_id FROM project_merge UNION SELECT new_id FROM project_merge)
  ) ranked WHERE n > 1
);
--> statement-breakpoint
DELETE FROM commits WHERE id IN (
  SELECT id FROM (
    SELECT c.id, row_number() OVER (PARTITION BY COALESCE(m.new_id, c.project_id), c.sha ORDER BY (m.old_id IS NULL) DESC, c.received_at, c.id) AS n
    FROM commits c LEFT JOIN project_merge m ON m.old_id = c.project_id
    WHERE c.project_id IN (SELECT old_id FROM project_merge UNION SELECT new_id FROM project_merge)
  ) ranked WHERE n > 1
);
--> statement-breakpoint
-- Deployments before pull requests: a moved PR's lead time is then computed with every deployment
-- of its repository already in place.
UPDATE issues t SET project_id = m.new_id FROM project_merge m WHERE t.project_id = m.old_id;
--> statement-breakpoint
UPDATE deployments t SET project_id = m.new_id FROM project_merge m WHERE t.project_id = m.old_id;
--> statement-breakpoint
UPDATE pull_requests t SET project_id = m.new_id FROM project_merge m WHERE t.project_id = m.old_id;
--> statement-breakpoint
UPDATE commits t SET project_id = m.new_id FROM project_merge m WHERE t.project_id = m.old_id;
--> statement-breakpoint
DELETE FROM projects WHERE id IN (SELECT old_id FROM project_merge);
--> statement-breakpoint
DROP INDEX "projects_tenant_provider_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "projects_tenant_key" ON "projects" USING btree ("tenant_id", lower("project_key"));
--> statement-breakpoint
-- The BI view's column comment follows the model's description (schema/projects.yml).
COMMENT ON COLUMN "bi"."projects"."provider" IS 'codehost when the code-host application reports the repository, else manual (named only by the webhook API, a tracker mapping or a team''s ownership). One project per repository whatever the source of its facts.';
