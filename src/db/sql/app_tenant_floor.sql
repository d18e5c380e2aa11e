-- Defined by versioned migrations up to 0031_tenant_floor; since then by this file (docs/sql-source.md).
-- The one way a table gets the floor; a migration adding a tenant table calls it
-- (`SELECT app_tenant_floor('my_table');`), and test/tenancy/floor.test.ts fails for a table
-- with a tenant_id column that did not.
CREATE OR REPLACE FUNCTION app_tenant_floor(target regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target);
  EXECUTE format('DROP POLICY IF EXISTS tenant_floor ON %s', target);
  EXECUTE format('DROP POLICY IF EXISTS system_work ON %s', target);
  -- nullif: outside any tenant the setting is empty, which must match nothing rather than fail the cast.
  EXECUTE format(
    'CREATE POLICY tenant_floor ON %s USING (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid) '
    'WITH CHECK (tenant_id = nullif(current_setting(''app.tenant_id'', true), '''')::uuid)', target);
  EXECUTE format('CREATE POLICY system_work ON %s TO app_system USING (true) WITH CHECK (true)', target);
END
$$;
