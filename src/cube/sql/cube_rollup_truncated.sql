-- Defined by versioned migrations up to 0018_cube_rollups_truncate; since then by this file (docs/sql-source.md).
-- TRUNCATE fires no row or statement DELETE trigger, so migration 0016's triggers never saw it:
-- stored rollup months stayed in use after a table the rolled-up views read was emptied. A
-- TRUNCATE of any of those tables now records a change of the whole of every tenant (cube '*');
-- it is table-wide, and rare.
CREATE OR REPLACE FUNCTION cube_rollup_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cube_rollup_changes (tenant_id, cube, month)
  SELECT id, '*', '-infinity'::date FROM tenants
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
