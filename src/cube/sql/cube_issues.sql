-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- The issues cube read the table; its flags and row columns are here now.
CREATE OR REPLACE VIEW "cube_issues" AS
SELECT i.tenant_id, i.id, i.project_id, i.external_id, i.title, i.type, i.state, i.created_at, i.closed_at,
       i.state = 'closed' AND i.closed_at IS NOT NULL AS is_closed,
       CASE WHEN i.state = 'closed' AND i.closed_at IS NOT NULL THEN extract(epoch FROM i.closed_at - i.created_at)::double precision END AS lead_time_seconds,
       p.project_key
FROM "issues" i
LEFT JOIN "projects" p ON p.id = i.project_id;
