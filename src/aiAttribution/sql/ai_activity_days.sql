-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- A person's AI activity by day, one row per source row: `person_key` is a lower-cased e-mail, or
-- `login:<code-host login>` for a source that names only a login. Read by (tenant, person_key,
-- day), which each branch answers from an index: an upload's day through its user's e-mail
-- (users_email_key, ai_sessions_tenant_user_idx), a telemetry day through its unique key.
-- Telemetry sessions need no branch of their own: every event of one also counts in its person-day.
-- depends-on: ai_vendor_activity_days
CREATE OR REPLACE VIEW "ai_activity_days" AS
SELECT s.tenant_id, u.email AS person_key, (s.started_at AT TIME ZONE 'UTC')::date AS day, 'upload'::text AS source, s.tool, s.id AS session_id
FROM "ai_sessions" s
JOIN "users" u ON u.id = s.user_id
WHERE s.source = 'upload'
UNION ALL
SELECT d.tenant_id, d.person_key, d.day, 'telemetry'::text AS source, d.tool, NULL::uuid AS session_id
FROM "ai_telemetry_days" d
WHERE d.person_email IS NOT NULL AND (d.sessions > 0 OR d.api_requests > 0 OR d.prompts > 0 OR d.edits_accepted > 0)
UNION ALL
SELECT v.tenant_id, v.person_key, v.day, v.source, v.tool, v.session_id FROM "ai_vendor_activity_days" v;
