-- Defined by versioned migrations up to 0016_cube_rollups; since then by this file (docs/sql-source.md).
-- Row-level, fired only when the column that attributes facts changes (WHEN clauses below), so the
-- frequent project upserts of the webhook API run nothing here.
CREATE OR REPLACE FUNCTION cube_rollup_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT tenant_id, '*', '-infinity'::date FROM tenant_memberships WHERE user_id = OLD.id
    UNION
    SELECT DISTINCT tenant_id, '*', '-infinity'::date FROM ai_sessions WHERE user_id = OLD.id
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO cube_rollup_changes (tenant_id, cube, month) VALUES (OLD.tenant_id, '*', '-infinity') ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
