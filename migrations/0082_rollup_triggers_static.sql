-- Rollup-mark triggers with static SQL (docs/rollups.md, src/cube/sql/cube_rollup_changed.sql).
-- Until now each trigger passed its table's columns as arguments and the function built, and
-- planned, an INSERT by EXECUTE on every write statement. Now every trigger hands over one
-- transition table named `changed`, so the function holds one static statement per table, whose
-- plan PL/pgSQL keeps: the inserted rows, the deleted rows, and for an update two triggers, one with
-- the old rows and one with the new (the same marks as the old rows' and the new rows' together).
-- The function's new body comes from its file, applied after the versioned migrations.
DROP TRIGGER cube_rollup_insert ON pull_requests;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON pull_requests;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON pull_requests;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON pull_requests REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON pull_requests REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON pull_requests REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON pull_requests REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON commits;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON pull_request_commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON pull_request_commits;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON pull_request_commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON pull_request_commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON pull_request_commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON pull_request_commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_session_links;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_session_links;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_session_links;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_session_links REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_session_links REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_session_links REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_session_links REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_sessions;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_sessions;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_sessions;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_sessions REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_sessions REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON person_identities;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON person_identities;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON person_identities;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON person_identities REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON person_identities REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON person_identities REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON person_identities REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON team_memberships;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON team_memberships;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON team_memberships;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON team_memberships REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON team_memberships REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON team_memberships REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON team_memberships REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_telemetry_days;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_telemetry_days;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_telemetry_days;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_telemetry_days REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_telemetry_days REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_telemetry_days REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_telemetry_days REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_vendor_days;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_vendor_days;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_vendor_days;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_vendor_days REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_vendor_days REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_vendor_days REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_vendor_days REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_vendor_commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_vendor_commits;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_vendor_commits;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_vendor_commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_vendor_commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_vendor_commits REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_vendor_commits REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
DROP TRIGGER cube_rollup_insert ON ai_attribution_settings;
--> statement-breakpoint
DROP TRIGGER cube_rollup_update ON ai_attribution_settings;
--> statement-breakpoint
DROP TRIGGER cube_rollup_delete ON ai_attribution_settings;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_attribution_settings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_attribution_settings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update_new AFTER UPDATE ON ai_attribution_settings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_attribution_settings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed();
