-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- Drill-through (issue 33): the cube views gain the columns a list of facts shows (keys, titles,
-- what made a deployment fail or recover, how an incident's cause was decided) and the flags the
-- measures count, as columns, so that a measure's filter and the list behind it read one rule
-- (docs/drill-through.md). Columns are appended (CREATE OR REPLACE VIEW keeps the existing ones);
-- the row columns are scalar subqueries or left joins on a primary key, which PostgreSQL drops when
-- a query does not read them, so the measures' plans are unchanged. The issues cube reads a new
-- view, cube_issues, for the same reason.
CREATE OR REPLACE VIEW "cube_incidents" AS
SELECT i.tenant_id, i.id, i.project_id, p.owning_team_id AS team_id, i.state, i.created_at, i.closed_at,
       COALESCE(named.id, recent.id) AS caused_by_deployment_id,
       i.state = 'closed' AND i.closed_at IS NOT NULL AS is_restored,
       CASE WHEN i.state = 'closed' AND i.closed_at IS NOT NULL THEN extract(epoch FROM i.closed_at - i.created_at)::double precision END AS restore_seconds,
       i.external_id, i.title, p.project_key,
       CASE WHEN named.id IS NOT NULL THEN 'named' WHEN recent.id IS NOT NULL THEN 'recent' END AS cause_rule,
       (SELECT d.external_id FROM "deployments" d WHERE d.id = COALESCE(named.id, recent.id)) AS caused_by_external_id
FROM "issues" i
LEFT JOIN "projects" p ON p.id = i.project_id
-- metadata.causedByDeployment names the deployment's externalId (same project preferred).
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE d.tenant_id = i.tenant_id AND d.external_id = i.metadata ->> 'causedByDeployment'
  ORDER BY (d.project_id = i.project_id) DESC, d.created_at DESC, d.id
  LIMIT 1
) named ON true
-- Otherwise the latest successful production deployment of the project in the 24 h before.
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE named.id IS NULL AND d.project_id = i.project_id AND d.status = 'success'
    AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= i.created_at - interval '24 hours' AND d.created_at <= i.created_at
  ORDER BY d.created_at DESC, d.id
  LIMIT 1
) recent ON true
WHERE i.type = 'incident';
