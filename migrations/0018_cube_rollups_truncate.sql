-- TRUNCATE fires no row or statement DELETE trigger, so migration 0016's triggers never saw it:
-- stored rollup months stayed in use after a table the rolled-up views read was emptied. A
-- TRUNCATE of any of those tables now records a change of the whole of every tenant (cube '*');
-- it is table-wide, and rare.
CREATE FUNCTION cube_rollup_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cube_rollup_changes (tenant_id, cube, month)
  SELECT id, '*', '-infinity'::date FROM tenants
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON pull_requests FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON commits FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON pull_request_commits FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_session_links FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_sessions FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON person_identities FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON team_memberships FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON teams FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON projects FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
