-- Defined by versioned migrations up to 0037_bi_team_month; since then by this file (docs/sql-source.md).
-- The relation of the team_months cube (schema/team_months.yml): every enabled team × month from
-- 2000-01 to the current month (UTC), the root of the Cube view team_monthly.
CREATE OR REPLACE VIEW "cube_team_months" AS
SELECT t.tenant_id, t.id AS team_id, (m AT TIME ZONE 'UTC') AS month, t.id::text || ':' || to_char(m, 'YYYY-MM') AS row_key
FROM "teams" t
CROSS JOIN generate_series(timestamp '2000-01-01', date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
WHERE t.enabled;
