-- Monthly rollups (pre-aggregations) of the heaviest cubes, exact at all times (docs/rollups.md).
--
-- cube_rollups holds, per tenant, cube and month, the rows Cube's planner returned for the rollup's
-- query (team × month), and the snapshot it was computed in. cube_rollup_changes records, from
-- triggers in the writing transaction itself, which (tenant, cube, month) a statement may have
-- changed, with the writer's transaction id. A rollup month is used only when every change of its
-- key (or of the whole tenant, cube '*') is visible in its snapshot, i.e. committed before it was
-- computed; otherwise that month is read from the facts. Changes are only ever inserted (no
-- counters to lock, so concurrent writers never wait on each other); the refresh job deletes them
-- once every rollup month has seen them.
CREATE TABLE "cube_rollups" (
  "tenant_id" uuid NOT NULL,
  "cube" text NOT NULL,
  "month" date NOT NULL,
  "model" text NOT NULL,
  "snapshot" pg_snapshot NOT NULL,
  "rows" jsonb NOT NULL,
  "built_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("tenant_id", "cube", "month")
);
--> statement-breakpoint
CREATE TABLE "cube_rollup_changes" (
  "tenant_id" uuid NOT NULL,
  "cube" text NOT NULL,
  "month" date NOT NULL,
  "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY ("tenant_id", "cube", "month", "xid")
);
--> statement-breakpoint
-- No foreign keys on either table: the triggers below also fire inside a tenant's cascading delete,
-- where a reference to the tenant would fail. The refresh job removes rows of deleted tenants.
CREATE FUNCTION cube_rollup_month(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT date_trunc('month', ts AT TIME ZONE 'UTC')::date $$;
--> statement-breakpoint
-- Facts: the months of the rows a statement touched (before and after images), per rolled-up cube
-- whose rows they feed. Statement-level, reading the statement's transition tables once.
-- TG_ARGV: the table's time column, first id column, second id column ('' when none).
CREATE FUNCTION cube_rollup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shape text := format('SELECT tenant_id, %s AS at, %s AS id1, %s AS id2 FROM %%I',
    CASE WHEN TG_ARGV[0] = '' THEN 'NULL::timestamptz' ELSE quote_ident(TG_ARGV[0]) END,
    CASE WHEN TG_ARGV[1] = '' THEN 'NULL::uuid' ELSE quote_ident(TG_ARGV[1]) END,
    CASE WHEN TG_ARGV[2] = '' THEN 'NULL::uuid' ELSE quote_ident(TG_ARGV[2]) END);
  rows text := CASE TG_OP
    WHEN 'INSERT' THEN format(shape, 'changed_new')
    WHEN 'DELETE' THEN format(shape, 'changed_old')
    ELSE format(shape, 'changed_old') || ' UNION ALL ' || format(shape, 'changed_new') END;
  affected text;
BEGIN
  affected := CASE TG_TABLE_NAME
    -- at = merged_at
    WHEN 'pull_requests' THEN
      'SELECT r.tenant_id, c.cube, cube_rollup_month(r.at) FROM r CROSS JOIN (VALUES (''pull_requests''), (''author_activity'')) c(cube) WHERE r.at IS NOT NULL'
    -- at = committed_at, id1 = commit; a commit''s AI co-author trailer also makes its pull requests AI-assisted
    WHEN 'commits' THEN
      'SELECT r.tenant_id, c.cube, cube_rollup_month(r.at) FROM r CROSS JOIN (VALUES (''author_activity''), (''ai_commits'')) c(cube)
       UNION SELECT pr.tenant_id, ''pull_requests'', cube_rollup_month(pr.merged_at) FROM r
         JOIN pull_request_commits prc ON prc.commit_id = r.id1 JOIN pull_requests pr ON pr.id = prc.pull_request_id WHERE pr.merged_at IS NOT NULL'
    -- id1 = pull request
    WHEN 'pull_request_commits' THEN
      'SELECT pr.tenant_id, ''pull_requests'', cube_rollup_month(pr.merged_at) FROM r JOIN pull_requests pr ON pr.id = r.id1 WHERE pr.merged_at IS NOT NULL'
    -- id1 = pull request, id2 = commit
    WHEN 'ai_session_links' THEN
      'SELECT pr.tenant_id, ''pull_requests'', cube_rollup_month(pr.merged_at) FROM r JOIN pull_requests pr ON pr.id = r.id1 WHERE pr.merged_at IS NOT NULL
       UNION SELECT c.tenant_id, ''ai_commits'', cube_rollup_month(c.committed_at) FROM r JOIN commits c ON c.id = r.id2'
    -- at = started_at, id1 = session; the session''s uploader decides the team of the commits it names
    WHEN 'ai_sessions' THEN
      'SELECT r.tenant_id, ''ai_sessions'', cube_rollup_month(r.at) FROM r
       UNION SELECT c.tenant_id, ''ai_commits'', cube_rollup_month(c.committed_at) FROM r
         JOIN ai_session_links l ON l.session_id = r.id1 JOIN commits c ON c.id = l.commit_id'
    -- register tables: who is whom and who is on which team changes every month (cube *)
    ELSE 'SELECT r.tenant_id, ''*'', ''-infinity''::date FROM r' END;
  EXECUTE format('INSERT INTO cube_rollup_changes (tenant_id, cube, month) SELECT DISTINCT * FROM (WITH r AS (%s) %s) a ON CONFLICT DO NOTHING', rows, affected);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Row-level, fired only when the column that attributes facts changes (WHEN clauses below), so the
-- frequent project upserts of the webhook API run nothing here.
CREATE FUNCTION cube_rollup_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON pull_requests REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('merged_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON pull_requests REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('merged_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON pull_requests REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('merged_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON commits REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON commits REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON commits REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON pull_request_commits REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON pull_request_commits REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON pull_request_commits REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_session_links REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', 'commit_id');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_session_links REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', 'commit_id');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_session_links REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', 'pull_request_id', 'commit_id');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_sessions REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('started_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_sessions REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('started_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_sessions REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('started_at', 'id', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON person_identities REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON person_identities REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON person_identities REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON team_memberships REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON team_memberships REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON team_memberships REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_owner AFTER UPDATE OF owning_team_id ON projects FOR EACH ROW WHEN (OLD.owning_team_id IS DISTINCT FROM NEW.owning_team_id) EXECUTE FUNCTION cube_rollup_row_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON projects FOR EACH ROW EXECUTE FUNCTION cube_rollup_row_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_enabled AFTER UPDATE OF enabled ON teams FOR EACH ROW WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled) EXECUTE FUNCTION cube_rollup_row_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON teams FOR EACH ROW EXECUTE FUNCTION cube_rollup_row_changed();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_email AFTER UPDATE OF email ON users FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION cube_rollup_row_changed();
