-- Defined by versioned migrations up to 0016_cube_rollups; since then by this file (docs/sql-source.md).
-- The month (UTC) a rollup row of a timestamp belongs to (docs/rollups.md).
CREATE OR REPLACE FUNCTION cube_rollup_month(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT date_trunc('month', ts AT TIME ZONE 'UTC')::date $$;
