-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- Rollups (docs/rollups.md): a person-day (telemetry or a vendor report) changes the ai_sessions cube of its month, a vendor commit its ai_commits month.
CREATE OR REPLACE FUNCTION cube_rollup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
  -- The OTLP intake's two tables take an upsert many times a second (docs/ai-telemetry.md): static
  -- statements, whose plans PL/pgSQL keeps, instead of the EXECUTE below, planned on every call
  -- (planning was most of these triggers' cost). Same rows as the general path's branches.
  IF TG_TABLE_NAME = 'ai_telemetry_days' THEN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT r.tenant_id, 'ai_sessions', date_trunc('month', r.day)::date FROM changed_new r ON CONFLICT DO NOTHING;
    ELSIF TG_OP = 'UPDATE' THEN
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT r.tenant_id, 'ai_sessions', date_trunc('month', r.day)::date
      FROM (SELECT tenant_id, day FROM changed_old UNION ALL SELECT tenant_id, day FROM changed_new) r ON CONFLICT DO NOTHING;
    ELSE
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT r.tenant_id, 'ai_sessions', date_trunc('month', r.day)::date FROM changed_old r ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'ai_sessions' THEN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT * FROM (
        SELECT r.tenant_id, 'ai_sessions' AS cube, cube_rollup_month(r.started_at) AS month FROM changed_new r
        UNION SELECT c.tenant_id, 'ai_commits', cube_rollup_month(c.committed_at)
          FROM changed_new r JOIN ai_session_links l ON l.session_id = r.id JOIN commits c ON c.id = l.commit_id) a
      ON CONFLICT DO NOTHING;
    ELSIF TG_OP = 'UPDATE' THEN
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT * FROM (
        WITH r AS (SELECT tenant_id, started_at, id FROM changed_old UNION ALL SELECT tenant_id, started_at, id FROM changed_new)
        SELECT r.tenant_id, 'ai_sessions' AS cube, cube_rollup_month(r.started_at) AS month FROM r
        UNION SELECT c.tenant_id, 'ai_commits', cube_rollup_month(c.committed_at)
          FROM r JOIN ai_session_links l ON l.session_id = r.id JOIN commits c ON c.id = l.commit_id) a
      ON CONFLICT DO NOTHING;
    ELSE
      INSERT INTO cube_rollup_changes (tenant_id, cube, month)
      SELECT DISTINCT * FROM (
        SELECT r.tenant_id, 'ai_sessions' AS cube, cube_rollup_month(r.started_at) AS month FROM changed_old r
        UNION SELECT c.tenant_id, 'ai_commits', cube_rollup_month(c.committed_at)
          FROM changed_old r JOIN ai_session_links l ON l.session_id = r.id JOIN commits c ON c.id = l.commit_id) a
      ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END IF;
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
    -- at = day, a date: its month as a date (cube_rollup_month would read it through the time zone)
    WHEN 'ai_telemetry_days' THEN
      'SELECT r.tenant_id, ''ai_sessions'', date_trunc(''month'', r.at)::date FROM r'
    -- at = day, a date (as ai_telemetry_days): a vendor report's person-day (docs/ai-vendor-reports.md)
    WHEN 'ai_vendor_days' THEN
      'SELECT r.tenant_id, ''ai_sessions'', date_trunc(''month'', r.at)::date FROM r'
    -- A vendor's AI lines in a commit make the PRs containing it AI-assisted (ai_vendor_commit_evidence,
    -- docs/ai-attribution.md), and the rows name no PR: every month of the tenant, as for the
    -- attribution labels (one statement per vendor pull).
    WHEN 'ai_vendor_commits' THEN
      'SELECT r.tenant_id, ''*'', ''-infinity''::date FROM r'
    -- register tables: who is whom and who is on which team changes every month (cube *)
    ELSE 'SELECT r.tenant_id, ''*'', ''-infinity''::date FROM r' END;
  EXECUTE format('INSERT INTO cube_rollup_changes (tenant_id, cube, month) SELECT DISTINCT * FROM (WITH r AS (%s) %s) a ON CONFLICT DO NOTHING', rows, affected);
  RETURN NULL;
END $$;
