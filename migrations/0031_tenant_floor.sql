-- The tenant floor (docs/tenancy.md): row-level security on every table with a tenant_id column.
--
-- Roles are cluster-wide, so they are created only when absent (several databases of one server,
-- the tests' clones of a template, share them). `app_tenant` is what request, job and command work
-- runs as (SET ROLE by src/db/client.ts at checkout): it sees the rows of the tenant named by the
-- `app.tenant_id` setting and nothing else. `app_system` marks work that spans tenants by design;
-- the connecting user is made a member, so that user (the owner of the tables) keeps seeing every
-- row when it works as itself, while anything running as `app_tenant` never does.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_tenant') THEN
    CREATE ROLE app_tenant NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_system') THEN
    CREATE ROLE app_system NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
END
$$;
--> statement-breakpoint
GRANT app_tenant TO CURRENT_USER;
--> statement-breakpoint
GRANT app_system TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO app_tenant;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO app_tenant;
--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO app_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO app_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO app_tenant;
--> statement-breakpoint
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
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.oid::regclass AS target
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    PERFORM app_tenant_floor(t.target);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The cube layer names the stored rollups' model after the latest migration (src/cube/rollups.ts).
GRANT USAGE ON SCHEMA drizzle TO app_tenant;
--> statement-breakpoint
GRANT SELECT ON drizzle.__drizzle_migrations TO app_tenant;
