-- Defined by versioned migrations up to 0035_ai_features; since then by this file (docs/sql-source.md).
-- The assessments as the cube reads them: one row per assessed session and enabled team of its person (cube_ai_sessions' rule).
-- depends-on: cube_ai_sessions
CREATE OR REPLACE VIEW "cube_session_assessments" AS
SELECT c.tenant_id, c.id AS session_id, c.row_key, c.team_id, c.person_id, c.started_at,
       a.model, a.score, a.task_completed, a.tests_run, a.rework_needed, a.risky_actions
FROM "session_assessments" a
JOIN "cube_ai_sessions" c ON c.id = a.session_id AND c.tenant_id = a.tenant_id;
