-- Defined by versioned migrations up to 0007_cube_views; since then by this file (docs/sql-source.md).
-- A seat counts in every month it is held on at least one day (assigned_on to revoked_on, or today).
CREATE OR REPLACE VIEW "cube_seat_months" AS
SELECT s.tenant_id, s.id AS seat_id, s.id::text || ':' || m::date::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key,
       s.person_id, s.tool, s.assigned_on, s.revoked_on, tm.team_id, m::date AS month
FROM "seats" s
CROSS JOIN LATERAL generate_series(
  date_trunc('month', s.assigned_on::timestamp),
  date_trunc('month', COALESCE(s.revoked_on, (now() AT TIME ZONE 'UTC')::date)::timestamp),
  interval '1 month') AS m
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = s.person_id;
