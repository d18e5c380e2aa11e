-- Defined by versioned migrations up to 0007_cube_views; since then by this file (docs/sql-source.md).
-- depends-on: cube_ai_sessions
-- A seat counts in every month it is held on at least one day (assigned_on to revoked_on, or today).
-- is_idle (docs/ai-measures.md): no activity of the seat in the month. Activity is the vendor's
-- last_activity_at falling in the month (Copilot's seat list), or any AI activity of the holder in
-- the month that ai_active_users counts (a session, a telemetry or vendor-report day, of any tool:
-- a seat imported from the register names its tool as the register does, which need not match a
-- source's tool name). A Copilot seat whose last_activity_at is after the month says nothing of
-- the month, so only the holder's activity decides then.
CREATE OR REPLACE VIEW "cube_seat_months" AS
SELECT s.tenant_id, s.id AS seat_id, s.id::text || ':' || m::date::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key,
       s.person_id, s.tool, s.assigned_on, s.revoked_on, tm.team_id, m::date AS month,
       s.last_activity_at,
       NOT (
         COALESCE(s.last_activity_at >= (m AT TIME ZONE 'UTC') AND s.last_activity_at < ((m + interval '1 month') AT TIME ZONE 'UTC'), false)
         OR EXISTS (SELECT 1 FROM "cube_ai_sessions" a
                    WHERE a.tenant_id = s.tenant_id AND a.person_id = s.person_id
                      AND a.started_at >= (m AT TIME ZONE 'UTC') AND a.started_at < ((m + interval '1 month') AT TIME ZONE 'UTC'))
       ) AS is_idle
FROM "seats" s
CROSS JOIN LATERAL generate_series(
  date_trunc('month', s.assigned_on::timestamp),
  date_trunc('month', COALESCE(s.revoked_on, (now() AT TIME ZONE 'UTC')::date)::timestamp),
  interval '1 month') AS m
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = s.person_id;
