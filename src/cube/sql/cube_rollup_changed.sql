-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- Rollups (docs/rollups.md): the (tenant, cube, month) a statement on one of the tables the rolled-up
-- views read may have changed. Statement-level: every trigger (migration 0082) hands over one
-- transition table named `changed` (the inserted rows, the deleted rows, or for an update one of
-- two triggers the old rows and the other the new rows), so each table has one static statement.
-- PL/pgSQL keeps a static statement's plan per trigger (the triggers' own copies of this function);
-- the EXECUTE of dynamic SQL this replaces was planned on every write statement, most of its cost.
-- One function rather than one per table: the triggers live in versioned migrations, which run
-- before the files and may not create a filed function (docs/sql-source.md).
CREATE OR REPLACE FUNCTION cube_rollup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CASE TG_TABLE_NAME
  WHEN 'pull_requests' THEN
    -- the merge month, for both cubes that count merged pull requests
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT DISTINCT r.tenant_id, c.cube, cube_rollup_month(r.merged_at)
    FROM changed r CROSS JOIN (VALUES ('pull_requests'), ('author_activity')) c(cube) WHERE r.merged_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  WHEN 'commits' THEN
    -- a commit's AI co-author trailer also makes its pull requests AI-assisted
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT r.tenant_id, c.cube, cube_rollup_month(r.committed_at) FROM changed r CROSS JOIN (VALUES ('author_activity'), ('ai_commits')) c(cube)
    UNION SELECT pr.tenant_id, 'pull_requests', cube_rollup_month(pr.merged_at) FROM changed r
      JOIN pull_request_commits prc ON prc.commit_id = r.id JOIN pull_requests pr ON pr.id = prc.pull_request_id WHERE pr.merged_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  WHEN 'pull_request_commits' THEN
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT DISTINCT pr.tenant_id, 'pull_requests', cube_rollup_month(pr.merged_at)
    FROM changed r JOIN pull_requests pr ON pr.id = r.pull_request_id WHERE pr.merged_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  WHEN 'ai_session_links' THEN
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT pr.tenant_id, 'pull_requests', cube_rollup_month(pr.merged_at) FROM changed r JOIN pull_requests pr ON pr.id = r.pull_request_id WHERE pr.merged_at IS NOT NULL
    UNION SELECT c.tenant_id, 'ai_commits', cube_rollup_month(c.committed_at) FROM changed r JOIN commits c ON c.id = r.commit_id
    ON CONFLICT DO NOTHING;
  WHEN 'ai_sessions' THEN
    -- the session's uploader decides the team of the commits it names
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT r.tenant_id, 'ai_sessions', cube_rollup_month(r.started_at) FROM changed r
    UNION SELECT c.tenant_id, 'ai_commits', cube_rollup_month(c.committed_at) FROM changed r
      JOIN ai_session_links l ON l.session_id = r.id JOIN commits c ON c.id = l.commit_id
    ON CONFLICT DO NOTHING;
  WHEN 'ai_telemetry_days', 'ai_vendor_days' THEN
    -- a person-day of telemetry or of a vendor report (docs/ai-vendor-reports.md); day is a date: its
    -- month as a date (cube_rollup_month would read it through the time zone)
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT DISTINCT r.tenant_id, 'ai_sessions', date_trunc('month', r.day)::date FROM changed r
    ON CONFLICT DO NOTHING;
  ELSE
    -- ai_vendor_commits: a vendor's AI lines in a commit make the PRs containing it AI-assisted
    -- (ai_vendor_commit_evidence, docs/ai-attribution.md) and the rows name no PR: every month of the
    -- tenant, as for the attribution labels (one statement per vendor pull). The registers
    -- (person_identities, team_memberships, ai_attribution_settings): who is whom and who is on
    -- which team changes every month.
    INSERT INTO cube_rollup_changes (tenant_id, cube, month)
    SELECT DISTINCT r.tenant_id, '*', '-infinity'::date FROM changed r
    ON CONFLICT DO NOTHING;
  END CASE;
  RETURN NULL;
END $$;
