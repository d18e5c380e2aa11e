-- Every view and function file of src/*/sql (docs/sql-source.md), in dependency order, then every bi view regenerated from the merged models of 2026-11-29 (PR phases and reviews, rework, replaced rows, p90 measures, vendor reports, AI activity measures, AI attribution): the bi views read columns the files add, and the files otherwise apply only after the last versioned migration. The files stay the source; this migration is listed in MOVED_INTO_FILES.
-- aiVendors/sql/ai_vendor_tool.sql
-- The tool a vendor report's source is, named as the other sources name it (telemetry: claude-code),
-- for the ai_sessions and ai_commits cubes (docs/ai-vendor-reports.md).
CREATE OR REPLACE FUNCTION ai_vendor_tool(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE source WHEN 'claude_code_analytics' THEN 'claude-code' ELSE source END
$$;
--> statement-breakpoint
-- aiAttribution/sql/ai_vendor_activity_days.sql
-- A person's AI activity by day from the vendor reports (ai_vendor_days, docs/ai-vendor-reports.md),
-- the vendor branch of ai_activity_days (docs/ai-attribution.md "Vendor data"). A day counts when the
-- report shows any use; person_key is already the lower-cased e-mail or `login:<login>`.
-- depends-on: ai_vendor_tool
CREATE OR REPLACE VIEW "ai_vendor_activity_days" AS
SELECT d.tenant_id, d.person_key, d.day, 'vendor'::text AS source, ai_vendor_tool(d.source) AS tool, NULL::uuid AS session_id
FROM "ai_vendor_days" d
WHERE d.sessions > 0 OR d.requests > 0 OR d.lines_added > 0 OR d.lines_suggested > 0 OR d.edits_accepted > 0 OR d.commits > 0;
--> statement-breakpoint
-- aiAttribution/sql/ai_activity_days.sql
-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- A person's AI activity by day, one row per source row: `person_key` is a lower-cased e-mail, or
-- `login:<code-host login>` for a source that names only a login. Read by (tenant, person_key,
-- day), which each branch answers from an index: an upload's day through its user's e-mail
-- (users_email_key, ai_sessions_tenant_user_idx), a telemetry day through its unique key.
-- Telemetry sessions need no branch of their own: every event of one also counts in its person-day.
-- depends-on: ai_vendor_activity_days
CREATE OR REPLACE VIEW "ai_activity_days" AS
SELECT s.tenant_id, u.email AS person_key, (s.started_at AT TIME ZONE 'UTC')::date AS day, 'upload'::text AS source, s.tool, s.id AS session_id
FROM "ai_sessions" s
JOIN "users" u ON u.id = s.user_id
WHERE s.source = 'upload'
UNION ALL
SELECT d.tenant_id, d.person_key, d.day, 'telemetry'::text AS source, d.tool, NULL::uuid AS session_id
FROM "ai_telemetry_days" d
WHERE d.person_email IS NOT NULL AND (d.sessions > 0 OR d.api_requests > 0 OR d.prompts > 0 OR d.edits_accepted > 0)
UNION ALL
SELECT v.tenant_id, v.person_key, v.day, v.source, v.tool, v.session_id FROM "ai_vendor_activity_days" v;
--> statement-breakpoint
-- aiAttribution/sql/ai_vendor_commit_evidence.sql
-- A vendor's per-commit AI lines (ai_vendor_commits: Cursor AI Code Tracking, tab or composer
-- lines) as high evidence for the commit with that sha in the tenant (docs/ai-attribution.md
-- "Vendor data"). Read by commit: commits_tenant_sha_idx, then ai_vendor_commits_tenant_sha.
-- depends-on: ai_vendor_tool
CREATE OR REPLACE VIEW "ai_vendor_commit_evidence" AS
SELECT v.tenant_id, c.id AS commit_id, 'vendor_commit'::text AS signal, v.source, NULL::uuid AS session_id,
       ai_vendor_tool(v.source) || ': ' || COALESCE(round(100.0 * (v.tab_lines_added + v.composer_lines_added) / NULLIF(v.total_lines_added, 0))::text || ' % of added lines', (v.tab_lines_added + v.composer_lines_added)::text || ' added lines')
       || ' from AI (tab ' || v.tab_lines_added::text || ', composer ' || v.composer_lines_added::text || '), vendor data, commit ' || left(c.sha, 7) AS evidence
FROM "ai_vendor_commits" v
JOIN "commits" c ON c.tenant_id = v.tenant_id AND c.sha = v.sha
WHERE v.ai_lines_added > 0 OR v.tab_lines_added > 0 OR v.composer_lines_added > 0;
--> statement-breakpoint
-- aiAttribution/sql/ai_commit_evidence.sql
-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- What says a commit was written with AI (the high level): a session that names it (uploaded or
-- captured; or built from telemetry, whose commits come from a tool_result's `git commit`), or a
-- vendor's per-commit data. `signal` is session, telemetry_commit or vendor_commit; `evidence` the
-- words a drill-through shows.
-- depends-on: ai_vendor_commit_evidence
CREATE OR REPLACE VIEW "ai_commit_evidence" AS
SELECT l.tenant_id, l.commit_id,
       CASE WHEN s.source = 'telemetry' THEN 'telemetry_commit' ELSE 'session' END AS signal,
       s.source, s.id AS session_id,
       'session ' || s.id::text || CASE WHEN s.source = 'telemetry' THEN ' (telemetry) names commit ' || left(c.sha, 7) || ' in a ' || s.tool || ' tool_result'
                                        ELSE ' (uploaded) names commit ' || left(c.sha, 7) END AS evidence
FROM "ai_session_links" l
JOIN "ai_sessions" s ON s.id = l.session_id
JOIN "commits" c ON c.id = l.commit_id
WHERE l.commit_id IS NOT NULL
UNION ALL
SELECT v.tenant_id, v.commit_id, v.signal, v.source, v.session_id, v.evidence FROM "ai_vendor_commit_evidence" v;
--> statement-breakpoint
-- db/sql/app_tenant_floor.sql
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
--> statement-breakpoint
-- bi/sql/bi_session_within_limits.sql
-- Defined by versioned migrations up to 0041_bi_role_guard; since then by this file (docs/sql-source.md).
-- The views' check (migration 0037) also holds the session to what the role's defaults set and a
-- session may undo: a read-only transaction, work_mem and hash_mem_multiplier at most the
-- credential's (4 MB, 2: PostgreSQL's defaults, set on every BI role).
CREATE OR REPLACE FUNCTION "public"."bi_session_within_limits"(limit_ms integer) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
DECLARE
  setting_name text;
  value bigint;
BEGIN
  FOREACH setting_name IN ARRAY ARRAY['statement_timeout', 'idle_in_transaction_session_timeout'] LOOP
    SELECT s.setting::bigint INTO value FROM pg_settings s WHERE s.name = setting_name;
    IF value = 0 OR value > limit_ms THEN
      RAISE EXCEPTION '% is % ms; this BI credential allows at most % ms', setting_name, value, limit_ms
        USING ERRCODE = 'insufficient_privilege', HINT = format('RESET %s, or set it to %s ms or less.', setting_name, limit_ms);
    END IF;
  END LOOP;
  IF current_setting('transaction_read_only') <> 'on' THEN
    RAISE EXCEPTION 'this BI credential reads in read-only transactions only'
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET default_transaction_read_only, and do not BEGIN READ WRITE.';
  END IF;
  SELECT s.setting::bigint INTO value FROM pg_settings s WHERE s.name = 'work_mem';
  IF value > 4096 THEN
    RAISE EXCEPTION 'work_mem is % kB; this BI credential allows at most 4096 kB', value
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET work_mem, or set it to 4MB or less.';
  END IF;
  IF current_setting('hash_mem_multiplier')::float8 > 2 THEN
    RAISE EXCEPTION 'hash_mem_multiplier is %; this BI credential allows at most 2', current_setting('hash_mem_multiplier')
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET hash_mem_multiplier, or set it to 2 or less.';
  END IF;
  RETURN true;
END
$$;
--> statement-breakpoint
-- cube/sql/change_lead_times_refresh.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION change_lead_times_refresh(prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(prs) = 0 THEN RETURN; END IF;
  WITH src AS MATERIALIZED (
    SELECT pr.id, pr.tenant_id, pr.project_id, pr.merged_at,
           COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at, fc.first_commit_at IS NOT NULL AS first_commit_known,
           dep.id AS deployment_id, dep.created_at AS deployed_at,
           extract(epoch FROM dep.created_at - COALESCE(fc.first_commit_at, pr.created_at))::double precision AS lead_time_seconds
    FROM "pull_requests" pr
    LEFT JOIN LATERAL (
      SELECT min(c.committed_at) AS first_commit_at
      FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
      WHERE prc.pull_request_id = pr.id
    ) fc ON true
    LEFT JOIN LATERAL (
      SELECT d.id, d.created_at FROM "deployments" d
      WHERE d.project_id = pr.project_id AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
        AND d.created_at >= pr.merged_at
        AND deployment_replaced_by(d.project_id, deployment_source_of(d.provider, d.metadata), d.created_at) IS NULL
      ORDER BY d.created_at, d.id LIMIT 1
    ) dep ON true
    WHERE pr.id IN (SELECT unnest(prs)) AND pr.merged_at IS NOT NULL
  ), gone AS (
    DELETE FROM "change_lead_times" c
    WHERE c.pull_request_id IN (SELECT unnest(prs)) AND NOT EXISTS (SELECT 1 FROM src WHERE src.id = c.pull_request_id)
  )
  INSERT INTO "change_lead_times" AS c (pull_request_id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds)
  SELECT id, tenant_id, project_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at, lead_time_seconds FROM src
  ON CONFLICT (pull_request_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
    merged_at = EXCLUDED.merged_at, first_commit_at = EXCLUDED.first_commit_at, first_commit_known = EXCLUDED.first_commit_known,
    deployment_id = EXCLUDED.deployment_id, deployed_at = EXCLUDED.deployed_at, lead_time_seconds = EXCLUDED.lead_time_seconds
  WHERE (c.tenant_id, c.project_id, c.merged_at, c.first_commit_at, c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds)
    IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.merged_at, EXCLUDED.first_commit_at, EXCLUDED.first_commit_known, EXCLUDED.deployment_id, EXCLUDED.deployed_at, EXCLUDED.lead_time_seconds);
END $$;
--> statement-breakpoint
-- aiAttribution/sql/commit_attribution.sql
-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- A commit's attribution, by the same rules: high (ai_commit_evidence), medium (an AI trailer), low
-- (its author's AI activity that day).
-- depends-on: ai_activity_days, ai_commit_evidence
CREATE OR REPLACE VIEW "commit_attribution" AS
SELECT f.tenant_id, f.commit_id,
       CASE WHEN f.high_evidence IS NOT NULL THEN 'high'
            WHEN f.has_ai_trailer THEN 'medium'
            WHEN f.activity_evidence IS NOT NULL THEN 'low'
            ELSE 'none' END AS ai_attribution,
       CASE WHEN f.high_evidence IS NOT NULL THEN f.high_evidence
            WHEN f.has_ai_trailer THEN 'trailer ' || f.trailer
            ELSE f.activity_evidence END AS ai_attribution_evidence
FROM (
  SELECT c.tenant_id, c.id AS commit_id,
         (cardinality(c.ai_trailers) > 0 OR cardinality(c.ai_coauthors) > 0) AS has_ai_trailer,
         COALESCE(c.ai_trailers[1], 'Co-authored-by: ' || c.ai_coauthors[1]) AS trailer,
         (SELECT string_agg(e.evidence, '; ' ORDER BY e.evidence) FROM "ai_commit_evidence" e WHERE e.tenant_id = c.tenant_id AND e.commit_id = c.id) AS high_evidence,
         (SELECT 'author ' || COALESCE(c.author_username, c.author_email) || ': AI activity (' || a.source || ', ' || a.tool || ') on ' || a.day::text
          FROM (SELECT lower(c.author_email) AS person_key WHERE c.author_email IS NOT NULL
                UNION SELECT 'login:' || lower(c.author_username) WHERE c.author_username IS NOT NULL
                UNION SELECT CASE WHEN pe.kind = 'email' THEN pe.value ELSE 'login:' || pe.value END
                FROM "person_identities" pa JOIN "person_identities" pe ON pe.tenant_id = pa.tenant_id AND pe.person_id = pa.person_id
                WHERE pa.tenant_id = c.tenant_id AND ((pa.kind = 'codehost_username' AND pa.value = lower(c.author_username)) OR (pa.kind = 'email' AND pa.value = lower(c.author_email)))) k
          JOIN "ai_activity_days" a ON a.tenant_id = c.tenant_id AND a.person_key = k.person_key AND a.day = (c.committed_at AT TIME ZONE 'UTC')::date
          ORDER BY a.source, a.tool LIMIT 1) AS activity_evidence
  FROM "commits" c
) f;
--> statement-breakpoint
-- aiAttribution/sql/pull_request_attribution.sql
-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- A PR's attribution: one row per PR; each signal on its own, the level, and the evidence of the
-- level reached (each signal's first item, in a fixed order). The inner columns are scalar
-- subqueries, so a query naming only `ai_assisted` (the AI share, the rollups, bi.team_month)
-- plans and evaluates a handful of index probes: any session link of the PR (a session naming the
-- PR, its branch, or, as `commit_pr` links, one of its commits), vendor commit data, an AI trailer,
-- the labels, the branch, the author. Evidence and the author's activity (low) are looked at only
-- when asked for, low only when nothing above it holds.
-- depends-on: ai_activity_days, ai_commit_evidence, ai_vendor_commit_evidence
CREATE OR REPLACE VIEW "pull_request_attribution" AS
SELECT f.tenant_id, f.pull_request_id,
       f.ai_via_session, f.ai_via_telemetry_commit, f.ai_via_vendor_commit,
       f.ai_via_trailer, f.ai_via_label, f.ai_via_branch, f.ai_via_bot,
       (f.any_session_link OR f.ai_via_vendor_commit OR f.ai_via_trailer OR f.ai_via_label OR f.ai_via_branch OR f.ai_via_bot) AS ai_assisted,
       CASE WHEN f.any_session_link OR f.ai_via_vendor_commit THEN 'high'
            WHEN f.ai_via_trailer OR f.ai_via_label OR f.ai_via_branch OR f.ai_via_bot THEN 'medium'
            WHEN f.activity_evidence IS NOT NULL THEN 'low'
            ELSE 'none' END AS ai_attribution,
       CASE WHEN f.any_session_link OR f.ai_via_vendor_commit OR f.ai_via_trailer OR f.ai_via_label OR f.ai_via_branch OR f.ai_via_bot
            THEN concat_ws('; ', f.session_evidence, f.telemetry_evidence, f.vendor_evidence, f.trailer_evidence, f.label_evidence,
                           CASE WHEN f.ai_via_branch THEN 'branch ' || f.head_branch END,
                           CASE WHEN f.ai_via_bot THEN 'author ' || f.author_username || ' (an AI agent account)' END)
            ELSE f.activity_evidence END AS ai_attribution_evidence
FROM (
  SELECT pr.tenant_id, pr.id AS pull_request_id, pr.head_branch, pr.author_username,
         EXISTS (SELECT 1 FROM "ai_session_links" l WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id) AS any_session_link,
         -- An uploaded or captured session, by any link; a telemetry session naming the PR or its branch.
         EXISTS (SELECT 1 FROM "ai_session_links" l JOIN "ai_sessions" s ON s.id = l.session_id
                 WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id AND (s.source <> 'telemetry' OR l.linked_by <> 'commit_pr')) AS ai_via_session,
         -- A telemetry session naming one of its commits (a tool_result's git commit).
         EXISTS (SELECT 1 FROM "ai_session_links" l JOIN "ai_sessions" s ON s.id = l.session_id
                 WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id AND s.source = 'telemetry' AND l.linked_by = 'commit_pr') AS ai_via_telemetry_commit,
         EXISTS (SELECT 1 FROM "pull_request_commits" prc JOIN "ai_vendor_commit_evidence" v ON v.commit_id = prc.commit_id
                 WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id) AS ai_via_vendor_commit,
         EXISTS (SELECT 1 FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
                 WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND (cardinality(c.ai_trailers) > 0 OR cardinality(c.ai_coauthors) > 0)) AS ai_via_trailer,
         EXISTS (SELECT 1 FROM unnest(pr.labels) AS label
                 WHERE lower(label) = 'ai-assisted'
                    OR lower(label) = ANY (COALESCE((SELECT st.labels FROM "ai_attribution_settings" st WHERE st.tenant_id = pr.tenant_id), '{}'::text[]))) AS ai_via_label,
         -- Agent branches: the coding agents push to a branch of the repository named so.
         COALESCE(split_part(lower(pr.head_branch), '/', 1) IN ('copilot', 'codex', 'claude', 'cursor') AND strpos(pr.head_branch, '/') > 0, false) AS ai_via_branch,
         -- AI agent accounts that open PRs themselves (docs/ai-attribution.md keeps the list).
         COALESCE(lower(pr.author_username) IN ('copilot', 'copilot-swe-agent', 'copilot-swe-agent[bot]', 'devin-ai-integration[bot]', 'google-labs-jules[bot]',
                                              'chatgpt-codex-connector[bot]', 'claude[bot]', 'cursor[bot]', 'openhands-agent', 'sweep-ai[bot]', 'codegen-sh[bot]'), false) AS ai_via_bot,
         (SELECT x.evidence FROM (
            SELECT 'session ' || s.id::text || CASE WHEN s.source = 'telemetry' THEN ' (telemetry)' ELSE ' (uploaded)' END
                   || CASE WHEN l.linked_by = 'pr_number' THEN ' names PR #' || pr.number::text ELSE ' names branch ' || pr.head_branch END AS evidence
            FROM "ai_session_links" l JOIN "ai_sessions" s ON s.id = l.session_id
            WHERE l.tenant_id = pr.tenant_id AND l.pull_request_id = pr.id AND l.linked_by IN ('pr_number', 'branch')
            UNION ALL
            SELECT e.evidence FROM "pull_request_commits" prc JOIN "ai_commit_evidence" e ON e.commit_id = prc.commit_id
            WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND e.signal = 'session') x
          ORDER BY x.evidence LIMIT 1) AS session_evidence,
         (SELECT e.evidence FROM "pull_request_commits" prc JOIN "ai_commit_evidence" e ON e.commit_id = prc.commit_id
          WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND e.signal = 'telemetry_commit' ORDER BY e.evidence LIMIT 1) AS telemetry_evidence,
         (SELECT v.evidence FROM "pull_request_commits" prc JOIN "ai_vendor_commit_evidence" v ON v.commit_id = prc.commit_id
          WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id ORDER BY v.evidence LIMIT 1) AS vendor_evidence,
         (SELECT 'trailer ' || COALESCE(c.ai_trailers[1], 'Co-authored-by: ' || c.ai_coauthors[1]) || ' (commit ' || left(c.sha, 7) || ')'
          FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
          WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id AND (cardinality(c.ai_trailers) > 0 OR cardinality(c.ai_coauthors) > 0)
          ORDER BY c.committed_at, c.sha LIMIT 1) AS trailer_evidence,
         (SELECT 'label ' || label FROM unnest(pr.labels) WITH ORDINALITY AS t(label, n)
          WHERE lower(label) = 'ai-assisted'
             OR lower(label) = ANY (COALESCE((SELECT st.labels FROM "ai_attribution_settings" st WHERE st.tenant_id = pr.tenant_id), '{}'::text[]))
          ORDER BY n LIMIT 1) AS label_evidence,
         -- Low: the author's AI activity on a day one of the PR's commits was made. The author is
         -- every e-mail and login of the register's person with the PR author's login, the login
         -- itself, and the e-mail of the PR's commits the author made.
         (SELECT 'author ' || pr.author_username || ': AI activity (' || a.source || ', ' || a.tool || ') on ' || a.day::text || ', the day of commit ' || left(d.sha, 7)
          FROM (SELECT c.sha, (c.committed_at AT TIME ZONE 'UTC')::date AS day, c.author_username, c.author_email
                FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
                WHERE prc.tenant_id = pr.tenant_id AND prc.pull_request_id = pr.id) d
          CROSS JOIN LATERAL (
            SELECT CASE WHEN pe.kind = 'email' THEN pe.value ELSE 'login:' || pe.value END AS person_key
            FROM "person_identities" pa JOIN "person_identities" pe ON pe.tenant_id = pa.tenant_id AND pe.person_id = pa.person_id
            WHERE pa.tenant_id = pr.tenant_id AND pa.kind = 'codehost_username' AND pa.value = lower(pr.author_username)
            UNION SELECT 'login:' || lower(pr.author_username)
            UNION SELECT lower(d.author_email) WHERE d.author_email IS NOT NULL AND lower(d.author_username) = lower(pr.author_username)
          ) k
          JOIN "ai_activity_days" a ON a.tenant_id = pr.tenant_id AND a.person_key = k.person_key AND a.day = d.day
          WHERE pr.author_username IS NOT NULL
          ORDER BY a.day, a.source, a.tool, d.sha LIMIT 1) AS activity_evidence
  FROM "pull_requests" pr
) f;
--> statement-breakpoint
-- cube/sql/cube_pull_requests.sql
-- Defined by versioned migrations up to 0068_pr_phases; since then by this file (docs/sql-source.md).
-- AI attribution (docs/ai-attribution.md): ai_assisted (level high or medium), its signals, the
-- level and its evidence come from pull_request_attribution through a left join on the PR's key,
-- which PostgreSQL removes when a query names none of its columns. (One scalar subquery per column
-- would expand the whole view once per column: measured at 4x the planning time of bi.team_month.)
-- depends-on: pull_request_attribution
CREATE OR REPLACE VIEW "cube_pull_requests" AS
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.number, pr.state, pr.draft, pr.author_username,
       pr.additions, pr.deletions,
       pr.additions + pr.deletions AS change_volume,
       CASE WHEN pr.additions + pr.deletions <= 10 THEN 1
            WHEN pr.additions + pr.deletions <= 50 THEN 2
            WHEN pr.additions + pr.deletions <= 250 THEN 3
            WHEN pr.additions + pr.deletions <= 1000 THEN 5
            ELSE 8 END AS change_effort_units,
       pr.created_at, pr.merged_at, pr.closed_at,
       a.ai_assisted AS ai_assisted,
       pr.merged_at IS NOT NULL AS is_merged,
       extract(epoch FROM pr.merged_at - pr.created_at)::double precision AS cycle_time_seconds,
       pr.title,
       p.project_key,
       a.ai_via_session AS ai_via_session,
       a.ai_via_trailer AS ai_via_trailer,
       a.ai_via_label AS ai_via_label,
       -- PR phases (METRICS.md "PR phases", docs/pr-phases.md): each value empty when an end is
       -- unknown; the flags are the rows each count measure counts (its n).
       CASE WHEN pr.merged_at IS NOT NULL THEN COALESCE(pr.ready_at, pr.created_at) ELSE pr.ready_at END AS ready_at,
       CASE WHEN pr.merged_at IS NULL OR pr.first_review_at <= pr.merged_at THEN pr.first_review_at END AS first_review_at,
       CASE WHEN clt.first_commit_known THEN clt.first_commit_at END AS first_commit_at,
       clt.deployed_at,
       COALESCE(pr.merged_at IS NOT NULL AND clt.first_commit_known, false) AS has_coding_time,
       COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS is_reviewed,
       pr.merged_at IS NOT NULL AND NOT COALESCE(pr.merged_at IS NOT NULL AND pr.first_review_at <= pr.merged_at, false) AS merged_without_review,
       COALESCE(pr.merged_at IS NOT NULL AND clt.deployed_at IS NOT NULL, false) AS is_deployed,
       -- A review before ready (on a draft) or a first commit dated after it is a phase of 0, not a negative one.
       CASE WHEN pr.merged_at IS NOT NULL AND clt.first_commit_known THEN greatest(extract(epoch FROM COALESCE(pr.ready_at, pr.created_at) - clt.first_commit_at), 0)::double precision END AS coding_time_seconds,
       CASE WHEN pr.first_review_at <= pr.merged_at THEN greatest(extract(epoch FROM pr.first_review_at - COALESCE(pr.ready_at, pr.created_at)), 0)::double precision END AS pickup_time_seconds,
       CASE WHEN pr.first_review_at <= pr.merged_at THEN extract(epoch FROM pr.merged_at - pr.first_review_at)::double precision END AS review_time_seconds,
       CASE WHEN pr.merged_at IS NOT NULL THEN extract(epoch FROM clt.deployed_at - pr.merged_at)::double precision END AS deploy_time_seconds,
       CASE WHEN pr.merged_at IS NOT NULL THEN pr.additions + pr.deletions END AS pr_size,
       (SELECT d.external_id FROM "deployments" d WHERE d.id = clt.deployment_id) AS deployment_external_id,
       -- Reverted within 30 days by a later merged PR of the project (METRICS.md "Rework"): by its
       -- title, or a commit naming one of its commits (its merge commit or a linked one). The flag
       -- and the reason are the same subquery.
       pr.merged_at IS NOT NULL AND (SELECT w.why FROM (
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
          FROM "pull_requests" r
          WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
            AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
          UNION ALL
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
          FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
                UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
          JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
          JOIN "pull_request_commits" rc ON rc.commit_id = c.id
          JOIN "pull_requests" r ON r.id = rc.pull_request_id
          WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
        ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1) IS NOT NULL AS is_reverted,
       CASE WHEN pr.merged_at IS NOT NULL THEN (SELECT w.why FROM (
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
          FROM "pull_requests" r
          WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
            AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
          UNION ALL
          SELECT r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
          FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
                UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
          JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
          JOIN "pull_request_commits" rc ON rc.commit_id = c.id
          JOIN "pull_requests" r ON r.id = rc.pull_request_id
          WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
        ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1) END AS reverted_because,
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence,
       a.ai_via_telemetry_commit AS ai_via_telemetry_commit,
       a.ai_via_vendor_commit AS ai_via_vendor_commit,
       a.ai_via_branch AS ai_via_branch,
       a.ai_via_bot AS ai_via_bot
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "pull_request_attribution" a ON a.pull_request_id = pr.id
-- The stored facts of a merged PR (first commit, deploying deployment): a left join on its key, dropped when not read.
LEFT JOIN "change_lead_times" clt ON clt.pull_request_id = pr.id;
--> statement-breakpoint
-- cube/sql/cube_ai_activity.sql
-- The relation of the ai_activity cube (schema/ai_activity.yml, docs/ai-measures.md): the AI
-- measures that are sums (lines, tokens, edits) and what they are divided by (merged PRs).
-- depends-on: ai_vendor_tool, cube_pull_requests
-- A "day" row is one person, one day, one tool, whatever its sources: Claude Code's telemetry and
-- the Claude Code Analytics API describe the same work, so each amount is the greatest any source
-- reports, never their sum, and `sources` names every source that reported the day. The person is
-- matched as cube_ai_sessions matches (e-mail identity; Copilot's login as a code-host username;
-- unmatched: the same digest), so user_key is ai_sessions.user_key. A "pr" row is a merged pull
-- request (cube_pull_requests.is_merged, what prs_merged counts) with its added lines. team_ids
-- holds every enabled team of the day's person, or the PR's owning team: the cube joins teams on
-- it, so a team's number has each row once, and the organisation's (no team join) too, while a
-- person on two teams counts in both.
CREATE OR REPLACE VIEW "cube_ai_activity" AS
SELECT d.tenant_id, md5(d.user_key::text || ':' || d.day::text || ':' || d.tool)::uuid AS id, 'day'::text AS kind,
       (d.day::timestamp AT TIME ZONE 'UTC') AS happened_at, d.user_key, d.person_id, d.tool,
       string_agg(DISTINCT d.source, ', ' ORDER BY d.source) AS sources,
       COALESCE((SELECT array_agg(tm.team_id ORDER BY tm.team_id) FROM "team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled
                 WHERE tm.tenant_id = d.tenant_id AND tm.person_id = d.person_id), '{}'::uuid[]) AS team_ids,
       max(d.ai_lines_added) AS ai_lines_added, max(d.tokens) AS tokens,
       max(d.edits_accepted) AS edits_accepted, max(d.edits_accepted + d.edits_rejected) AS edits_offered,
       0::bigint AS merged_prs, 0::bigint AS pr_lines_added
FROM (
  SELECT td.tenant_id, td.day, td.tool, 'telemetry'::text AS source, pi.person_id,
         COALESCE(pi.person_id, md5(COALESCE('email:' || td.person_email, 'account:' || td.person_account))::uuid) AS user_key,
         td.lines_added AS ai_lines_added, td.input_tokens + td.output_tokens AS tokens,
         td.edits_accepted::bigint AS edits_accepted, td.edits_rejected::bigint AS edits_rejected
  FROM "ai_telemetry_days" td
  LEFT JOIN "person_identities" pi ON pi.tenant_id = td.tenant_id AND pi.kind = 'email' AND pi.value = td.person_email
  UNION ALL
  SELECT v.tenant_id, v.day, ai_vendor_tool(v.source), v.source, p.person_id,
         COALESCE(p.person_id, md5(COALESCE('email:' || v.person_email, 'login:' || v.person_login))::uuid),
         v.lines_added, v.input_tokens + v.output_tokens, v.edits_accepted::bigint, v.edits_rejected::bigint
  FROM "ai_vendor_days" v
  LEFT JOIN "person_identities" pe ON pe.tenant_id = v.tenant_id AND pe.kind = 'email' AND pe.value = v.person_email
  LEFT JOIN "person_identities" pl ON pl.tenant_id = v.tenant_id AND pl.kind = 'codehost_username' AND pl.value = v.person_login
  CROSS JOIN LATERAL (SELECT COALESCE(pe.person_id, pl.person_id) AS person_id) p
  WHERE v.person_email IS NOT NULL OR v.person_login IS NOT NULL
) d
GROUP BY d.tenant_id, d.user_key, d.person_id, d.day, d.tool
UNION ALL
SELECT pr.tenant_id, pr.id, 'pr'::text, pr.merged_at, NULL::uuid, NULL::uuid, NULL::text, 'code host'::text,
       CASE WHEN pr.team_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[pr.team_id] END,
       0::bigint, 0::bigint, 0::bigint, 0::bigint, 1::bigint, pr.additions::bigint
FROM "cube_pull_requests" pr
WHERE pr.is_merged;
--> statement-breakpoint
-- cube/sql/cube_ai_commits.sql
-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- depends-on: ai_vendor_tool
-- ai_commits (METRICS.md): a commit linked to an AI session, or one a vendor reports AI-written
-- lines in (Cursor AI Code Tracking, ai_vendor_commits), matched to our commit by sha. Each
-- evidence is a row (per team of its person); the commit's tools and people are the same on all
-- of its rows. Telemetry sessions have no user: their commits still count, keyed as
-- cube_ai_sessions keys them.
CREATE OR REPLACE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, e.link_id, e.key || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       e.session_id, e.person_id, tm.team_id,
       c.sha,
       (SELECT p.project_key FROM "projects" p WHERE p.id = c.project_id) AS project_key,
       (SELECT string_agg(DISTINCT x.tool, ', ' ORDER BY x.tool) FROM (
          SELECT a.tool FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT ai_vendor_tool(vc.source) FROM "ai_vendor_commits" vc
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0) x) AS ai_tools,
       (SELECT string_agg(al.session_id::text, ', ' ORDER BY al.session_id::text)
        FROM "ai_session_links" al
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_session_ids,
       (SELECT string_agg(DISTINCT x.key::text, ', ' ORDER BY x.key::text) FROM (
          SELECT COALESCE(api.person_id, a.user_id, md5(COALESCE('email:' || a.person_email, 'account:' || a.person_account))::uuid) AS key
          FROM "ai_session_links" al
          JOIN "ai_sessions" a ON a.id = al.session_id
          LEFT JOIN "users" au ON au.id = a.user_id
          LEFT JOIN "person_identities" api ON api.tenant_id = a.tenant_id AND api.kind = 'email' AND api.value = lower(COALESCE(au.email, a.person_email))
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT COALESCE(vpi.person_id, md5('email:' || vc.person_email)::uuid)
          FROM "ai_vendor_commits" vc
          LEFT JOIN "person_identities" vpi ON vpi.tenant_id = vc.tenant_id AND vpi.kind = 'email' AND vpi.value = vc.person_email
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0 AND vc.person_email IS NOT NULL) x) AS ai_user_keys,
       -- Which sources link the commit (docs/ai-measures.md): each session's (upload, telemetry) and
       -- each vendor reporting AI lines in it (cursor), sorted, joined by ", ".
       (SELECT string_agg(DISTINCT x.source, ', ' ORDER BY x.source) FROM (
          SELECT a.source FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT vc.source FROM "ai_vendor_commits" vc
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0) x) AS ai_sources
FROM (
  SELECT l.commit_id, l.id AS link_id, l.id::text AS key, l.session_id, pi.person_id
  FROM "ai_session_links" l
  JOIN "ai_sessions" s ON s.id = l.session_id
  LEFT JOIN "users" u ON u.id = s.user_id
  LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
  UNION ALL
  SELECT vcm.id AS commit_id, NULL::uuid AS link_id, 'vendor:' || v.id::text AS key, NULL::uuid AS session_id, vpi.person_id
  FROM "ai_vendor_commits" v
  JOIN "commits" vcm ON vcm.tenant_id = v.tenant_id AND vcm.sha = v.sha
  LEFT JOIN "person_identities" vpi ON vpi.tenant_id = v.tenant_id AND vpi.kind = 'email' AND vpi.value = v.person_email
  WHERE v.ai_lines_added > 0
) e
JOIN "commits" c ON c.id = e.commit_id
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = c.tenant_id AND tm.person_id = e.person_id;
--> statement-breakpoint
-- cube/sql/cube_ai_sessions.sql
-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- depends-on: ai_vendor_tool
-- A person-day row has no session id (ai_sessions counts ids, which skips it) but a user_key
-- (ai_active_users counts those, so a person active through an upload, telemetry and a vendor
-- report on the same day counts once). Unmatched telemetry is keyed by the e-mail's digest, as
-- cube_commits keys unmatched authors. A vendor person-day (docs/ai-vendor-reports.md) is the
-- third kind of row: its person is the e-mail (Claude Code, Cursor) or the code-host login
-- (Copilot) matched through the register's identities at query time; unmatched, the same digest
-- as telemetry's, so one unmatched e-mail seen by telemetry and a vendor is one user. Rows of no
-- person (a Claude Code API key) are not people and are left out.
CREATE OR REPLACE VIEW "cube_ai_sessions" AS
SELECT s.tenant_id, s.id, s.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, s.user_id, pi.person_id,
       tm.team_id, s.tool, s.model, s.started_at, s.ended_at,
       COALESCE(pi.person_id, s.user_id, md5(COALESCE('email:' || s.person_email, 'account:' || s.person_account))::uuid) AS user_key,
       s.source
FROM "ai_sessions" s
LEFT JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id
UNION ALL
SELECT d.tenant_id, NULL::uuid AS id, 'day:' || d.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, NULL::uuid AS user_id, pi.person_id,
       tm.team_id, d.tool, NULL::text AS model, (d.day::timestamp AT TIME ZONE 'UTC') AS started_at, NULL::timestamptz AS ended_at,
       COALESCE(pi.person_id, md5(COALESCE('email:' || d.person_email, 'account:' || d.person_account))::uuid) AS user_key,
       'telemetry'::text AS source
FROM "ai_telemetry_days" d
LEFT JOIN "person_identities" pi ON pi.tenant_id = d.tenant_id AND pi.kind = 'email' AND pi.value = d.person_email
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = d.tenant_id AND tm.person_id = pi.person_id
-- METRICS.md: a telemetry day counts with at least one session, request or accepted edit.
WHERE d.sessions > 0 OR d.api_requests > 0 OR d.prompts > 0 OR d.edits_accepted > 0
UNION ALL
SELECT v.tenant_id, NULL::uuid AS id, 'vendor:' || v.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, NULL::uuid AS user_id, p.person_id,
       tm.team_id, ai_vendor_tool(v.source) AS tool, NULL::text AS model, (v.day::timestamp AT TIME ZONE 'UTC') AS started_at, NULL::timestamptz AS ended_at,
       COALESCE(p.person_id, md5(COALESCE('email:' || v.person_email, 'login:' || v.person_login))::uuid) AS user_key,
       v.source
FROM "ai_vendor_days" v
LEFT JOIN "person_identities" pe ON pe.tenant_id = v.tenant_id AND pe.kind = 'email' AND pe.value = v.person_email
LEFT JOIN "person_identities" pl ON pl.tenant_id = v.tenant_id AND pl.kind = 'codehost_username' AND pl.value = v.person_login
CROSS JOIN LATERAL (SELECT COALESCE(pe.person_id, pl.person_id) AS person_id) p
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = v.tenant_id AND tm.person_id = p.person_id
WHERE (v.person_email IS NOT NULL OR v.person_login IS NOT NULL)
  AND (v.sessions > 0 OR v.requests > 0 OR v.edits_accepted > 0);
--> statement-breakpoint
-- cube/sql/cube_author_activity.sql
-- Defined by versioned migrations up to 0011_cube_uuid_keys; since then by this file (docs/sql-source.md).
CREATE OR REPLACE VIEW "cube_author_activity" AS
SELECT pr.tenant_id, p.owning_team_id AS team_id, 'pull_request' AS kind, pr.id AS fact_id, pr.merged_at AS happened_at,
       COALESCE(pi.person_id, md5('username:' || lower(pr.author_username))::uuid) AS author_key
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = pr.tenant_id AND pi.kind = 'codehost_username' AND pi.value = lower(pr.author_username)
WHERE pr.merged_at IS NOT NULL
UNION ALL
SELECT c.tenant_id, p.owning_team_id AS team_id, 'commit' AS kind, c.id AS fact_id, c.committed_at AS happened_at,
       COALESCE(pu.person_id, pe.person_id, md5('username:' || lower(c.author_username))::uuid, md5('email:' || lower(c.author_email))::uuid) AS author_key
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "person_identities" pu ON pu.tenant_id = c.tenant_id AND pu.kind = 'codehost_username' AND pu.value = lower(c.author_username)
LEFT JOIN "person_identities" pe ON pe.tenant_id = c.tenant_id AND pe.kind = 'email' AND pe.value = lower(c.author_email);
--> statement-breakpoint
-- cube/sql/cube_change_lead_times.sql
-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- The PR's AI attribution level and evidence (docs/ai-attribution.md), appended; the left join is removed when not read.
-- depends-on: pull_request_attribution
CREATE OR REPLACE VIEW "cube_change_lead_times" AS
SELECT c.tenant_id, c.pull_request_id AS id, c.project_id, p.owning_team_id AS team_id, c.merged_at, c.first_commit_at,
       c.first_commit_known, c.deployment_id, c.deployed_at, c.lead_time_seconds,
       c.deployed_at IS NOT NULL AS is_deployed,
       p.project_key, pr.number, pr.title, pr.author_username, pr.created_at AS opened_at,
       d.external_id AS deployment_external_id,
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence
FROM "change_lead_times" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "pull_requests" pr ON pr.id = c.pull_request_id
LEFT JOIN "deployments" d ON d.id = c.deployment_id
LEFT JOIN "pull_request_attribution" a ON a.pull_request_id = c.pull_request_id;
--> statement-breakpoint
-- cube/sql/cube_commits.sql
-- Defined by versioned migrations up to 0007_cube_views; since then by this file (docs/sql-source.md).
-- The commit's AI attribution level and evidence (docs/ai-attribution.md), appended.
-- depends-on: commit_attribution
CREATE OR REPLACE VIEW "cube_commits" AS
SELECT c.tenant_id, c.id, c.project_id, p.owning_team_id AS team_id, c.sha, c.branch, c.author_username, c.author_email,
       c.committed_at, cardinality(c.ai_coauthors) > 0 AS has_ai_coauthor,
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "commit_attribution" a ON a.commit_id = c.id;
--> statement-breakpoint
-- cube/sql/cube_incidents.sql
-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- Drill-through (issue 33): the cube views gain the columns a list of facts shows (keys, titles,
-- what made a deployment fail or recover, how an incident's cause was decided) and the flags the
-- measures count, as columns, so that a measure's filter and the list behind it read one rule
-- (docs/drill-through.md). Columns are appended (CREATE OR REPLACE VIEW keeps the existing ones);
-- the row columns are scalar subqueries or left joins on a primary key, which PostgreSQL drops when
-- a query does not read them, so the measures' plans are unchanged. The issues cube reads a new
-- view, cube_issues, for the same reason.
CREATE OR REPLACE VIEW "cube_incidents" AS
SELECT i.tenant_id, i.id, i.project_id, p.owning_team_id AS team_id, i.state, i.created_at, i.closed_at,
       COALESCE(named.id, recent.id) AS caused_by_deployment_id,
       i.state = 'closed' AND i.closed_at IS NOT NULL AS is_restored,
       CASE WHEN i.state = 'closed' AND i.closed_at IS NOT NULL THEN extract(epoch FROM i.closed_at - i.created_at)::double precision END AS restore_seconds,
       i.external_id, i.title, p.project_key,
       CASE WHEN named.id IS NOT NULL THEN 'named' WHEN recent.id IS NOT NULL THEN 'recent' END AS cause_rule,
       (SELECT d.external_id FROM "deployments" d WHERE d.id = COALESCE(named.id, recent.id)) AS caused_by_external_id
FROM "issues" i
LEFT JOIN "projects" p ON p.id = i.project_id
-- metadata.causedByDeployment names the deployment's externalId (same project preferred).
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE d.tenant_id = i.tenant_id AND d.external_id = i.metadata ->> 'causedByDeployment'
  ORDER BY (d.project_id = i.project_id) DESC, d.created_at DESC, d.id
  LIMIT 1
) named ON true
-- Otherwise the latest successful production deployment of the project in the 24 h before.
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE named.id IS NULL AND d.project_id = i.project_id AND d.status = 'success'
    AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= i.created_at - interval '24 hours' AND d.created_at <= i.created_at
  ORDER BY d.created_at DESC, d.id
  LIMIT 1
) recent ON true
WHERE i.type = 'incident';
--> statement-breakpoint
-- cube/sql/cube_deployments.sql
-- Defined by versioned migrations up to 0070_source_switch_leftovers; since then by this file (docs/sql-source.md).
-- depends-on: cube_incidents
CREATE OR REPLACE VIEW "cube_deployments" AS
SELECT f.tenant_id, f.deployment_id AS id, f.project_id, p.owning_team_id AS team_id, d.environment, f.status, d.sha, d.is_rollback,
       f.created_at, f.is_production,
       f.status IN ('success', 'failure', 'error') AS is_finished,
       f.rolled_back, f.caused_incident,
       f.replaced_by IS NULL AND b.failed AS is_failed,
       f.recovered_at,
       -- The flags production_deploys, finished_production_deploys and recovered_deploys count.
       -- A row replaced by the project's current source (replaced_by) counts in none of them.
       f.replaced_by IS NULL AND b.successful_production AS is_successful_production,
       f.replaced_by IS NULL AND b.finished_production AS is_finished_production,
       f.recovered_at IS NOT NULL AS is_recovered,
       extract(epoch FROM f.recovered_at - f.created_at)::double precision AS recovery_seconds,
       d.external_id,
       p.project_key,
       -- The first later rollback of the project naming this sha (the rule of deployment_facts_refresh, 0021).
       (SELECT r.external_id FROM "deployments" r
        WHERE r.project_id = f.project_id AND r.is_rollback AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
          AND r.created_at > f.created_at
          AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
        ORDER BY r.created_at, r.id LIMIT 1) AS rolled_back_by,
       (SELECT r.created_at FROM "deployments" r
        WHERE r.project_id = f.project_id AND r.is_rollback AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
          AND r.created_at > f.created_at
          AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
        ORDER BY r.created_at, r.id LIMIT 1) AS rolled_back_at,
       -- The first incident whose cause (cube_incidents' rule) is this deployment, among those that
       -- may name it: by externalId, or opened in its 24 h (as the triggers of 0021 find them). Not
       -- incident_cause(): a view runs its functions as the caller, which a BI role cannot be.
       (SELECT ci.external_id FROM "cube_incidents" ci
        WHERE ci.caused_by_deployment_id = f.deployment_id
          AND ci.id IN (SELECT i.id FROM "issues" i WHERE i.type = 'incident' AND (
            (i.tenant_id = f.tenant_id AND (i.metadata ->> 'causedByDeployment') = d.external_id)
            OR (i.project_id = f.project_id AND i.created_at >= f.created_at AND i.created_at <= f.created_at + interval '24 hours')))
        ORDER BY ci.created_at, ci.id LIMIT 1) AS caused_incident_key,
       -- The good deployment at recovered_at (the next successful, not rolled back, production deployment of the project).
       (SELECT n.external_id FROM "deployment_facts" g JOIN "deployments" n ON n.id = g.deployment_id
        WHERE g.project_id = f.project_id AND g.created_at = f.recovered_at AND g.status = 'success' AND g.is_production AND NOT g.rolled_back
          AND g.replaced_by IS NULL
        ORDER BY g.deployment_id LIMIT 1) AS recovered_by,
       -- The source whose period this row falls in, when not its own (one source per period, METRICS.md).
       f.replaced_by,
       -- Rework (METRICS.md "Rework", DORA's deployment rework rate): a finished production deployment
       -- that is a rollback, or the good deployment that recovered a failed one (the deployment at
       -- another's recovered_at, the rule of recovered_by above).
       f.replaced_by IS NULL AND f.is_production AND f.status IN ('success', 'failure', 'error') AND (COALESCE(d.is_rollback, false) OR (f.status = 'success' AND NOT f.rolled_back AND EXISTS (SELECT 1 FROM "deployment_facts" x WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL))) AS is_rework,
       CASE WHEN f.replaced_by IS NULL AND f.is_production AND f.status IN ('success', 'failure', 'error') AND (COALESCE(d.is_rollback, false) OR (f.status = 'success' AND NOT f.rolled_back AND EXISTS (SELECT 1 FROM "deployment_facts" x WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL))) THEN concat_ws('; ',
         CASE WHEN d.is_rollback THEN 'rollback from ' || COALESCE(left(d.rollback_from_sha, 7), '?') END,
         CASE WHEN f.status = 'success' AND NOT f.rolled_back THEN (SELECT 'recovery after ' || string_agg(xd.external_id, ', ' ORDER BY x.created_at, x.deployment_id) || ' failed'
           FROM "deployment_facts" x JOIN "deployments" xd ON xd.id = x.deployment_id
           WHERE x.project_id = f.project_id AND x.recovered_at = f.created_at AND x.replaced_by IS NULL) END) END AS rework_because,
       -- The measures count the any-source flags of the rows not replaced (schema/deployments.yml),
       -- so a drill-through lists the replaced rows of a measure apart (docs/drill-through.md).
       f.replaced_by IS NOT NULL AS is_replaced,
       b.successful_production AS any_source_successful_production,
       b.finished_production AS any_source_finished_production,
       b.failed AS any_source_failed
FROM "deployment_facts" f
LEFT JOIN "deployments" d ON d.id = f.deployment_id
LEFT JOIN "projects" p ON p.id = f.project_id
-- A row's flags whatever its source's period, written once (the planner inlines it).
CROSS JOIN LATERAL (SELECT f.is_production AND f.status = 'success' AS successful_production,
                           f.is_production AND f.status IN ('success', 'failure', 'error') AS finished_production,
                           f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS failed) b;
--> statement-breakpoint
-- cube/sql/cube_issues.sql
-- Defined by versioned migrations up to 0045_drill_through; since then by this file (docs/sql-source.md).
-- The issues cube read the table; its flags and row columns are here now.
CREATE OR REPLACE VIEW "cube_issues" AS
SELECT i.tenant_id, i.id, i.project_id, i.external_id, i.title, i.type, i.state, i.created_at, i.closed_at,
       i.state = 'closed' AND i.closed_at IS NOT NULL AS is_closed,
       CASE WHEN i.state = 'closed' AND i.closed_at IS NOT NULL THEN extract(epoch FROM i.closed_at - i.created_at)::double precision END AS lead_time_seconds,
       p.project_key
FROM "issues" i
LEFT JOIN "projects" p ON p.id = i.project_id;
--> statement-breakpoint
-- cube/sql/cube_pull_request_reviews.sql
-- Created by migration 0068_pr_phases; since then defined by this file (docs/sql-source.md).
CREATE OR REPLACE VIEW "cube_pull_request_reviews" AS
SELECT r.tenant_id, r.project_id::text || ':' || r.review_id AS id, r.project_id, p.owning_team_id AS team_id,
       r.pull_request_number AS number, r.reviewer, r.state, r.submitted_at,
       -- A review given: by someone other than the PR's author, not a bot (the first review's rule).
       NOT r.reviewer_is_bot AND lower(r.reviewer) IS DISTINCT FROM lower(pr.author_username) AS is_counted,
       p.project_key, pr.title, pr.author_username
FROM "pull_request_reviews" r
LEFT JOIN "projects" p ON p.id = r.project_id
LEFT JOIN "pull_requests" pr ON pr.project_id = r.project_id AND pr.number = r.pull_request_number;
--> statement-breakpoint
-- cube/sql/cube_rollup_changed.sql
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
--> statement-breakpoint
-- cube/sql/cube_rollup_month.sql
-- Defined by versioned migrations up to 0016_cube_rollups; since then by this file (docs/sql-source.md).
-- The month (UTC) a rollup row of a timestamp belongs to (docs/rollups.md).
CREATE OR REPLACE FUNCTION cube_rollup_month(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT date_trunc('month', ts AT TIME ZONE 'UTC')::date $$;
--> statement-breakpoint
-- cube/sql/cube_rollup_row_changed.sql
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
--> statement-breakpoint
-- cube/sql/cube_rollup_truncated.sql
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
--> statement-breakpoint
-- cube/sql/cube_seat_months.sql
-- Defined by versioned migrations up to 0007_cube_views; since then by this file (docs/sql-source.md).
-- depends-on: cube_ai_sessions
-- A seat counts in every month it is held on at least one day (assigned_on to revoked_on, or today).
-- is_idle (docs/ai-measures.md): no activity of the seat in the month. Activity is the vendor's
-- last_activity_at falling in the month (Copilot's seat list), or any AI activity of the holder in
-- the month that ai_active_users counts (a session, a telemetry or vendor-report day, of any tool:
-- a seat imported from the register names its tool as the register does, which need not match a
-- source's tool name). A Copilot seat whose last_activity_at is after the month says nothing of
-- the month, so only the holder's activity decides then.
CREATE OR REPLACE VIEW "cube_seat_months" AS
SELECT s.tenant_id, s.id AS seat_id, s.id::text || ':' || m::date::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key,
       s.person_id, s.tool, s.assigned_on, s.revoked_on, tm.team_id, m::date AS month,
       s.last_activity_at,
       NOT (
         COALESCE(s.last_activity_at >= (m AT TIME ZONE 'UTC') AND s.last_activity_at < ((m + interval '1 month') AT TIME ZONE 'UTC'), false)
         OR EXISTS (SELECT 1 FROM "cube_ai_sessions" a
                    WHERE a.tenant_id = s.tenant_id AND a.person_id = s.person_id
                      AND a.started_at >= (m AT TIME ZONE 'UTC') AND a.started_at < ((m + interval '1 month') AT TIME ZONE 'UTC'))
       ) AS is_idle
FROM "seats" s
CROSS JOIN LATERAL generate_series(
  date_trunc('month', s.assigned_on::timestamp),
  date_trunc('month', COALESCE(s.revoked_on, (now() AT TIME ZONE 'UTC')::date)::timestamp),
  interval '1 month') AS m
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = s.person_id;
--> statement-breakpoint
-- cube/sql/cube_session_assessments.sql
-- Defined by versioned migrations up to 0035_ai_features; since then by this file (docs/sql-source.md).
-- The assessments as the cube reads them: one row per assessed session and enabled team of its person (cube_ai_sessions' rule).
-- depends-on: cube_ai_sessions
CREATE OR REPLACE VIEW "cube_session_assessments" AS
SELECT c.tenant_id, c.id AS session_id, c.row_key, c.team_id, c.person_id, c.started_at,
       a.model, a.score, a.task_completed, a.tests_run, a.rework_needed, a.risky_actions
FROM "session_assessments" a
JOIN "cube_ai_sessions" c ON c.id = a.session_id AND c.tenant_id = a.tenant_id;
--> statement-breakpoint
-- cube/sql/cube_team_months.sql
-- Defined by versioned migrations up to 0037_bi_team_month; since then by this file (docs/sql-source.md).
-- The relation of the team_months cube (schema/team_months.yml): every enabled team × month from
-- 2000-01 to the current month (UTC), the root of the Cube view team_monthly.
CREATE OR REPLACE VIEW "cube_team_months" AS
SELECT t.tenant_id, t.id AS team_id, (m AT TIME ZONE 'UTC') AS month, t.id::text || ':' || to_char(m, 'YYYY-MM') AS row_key
FROM "teams" t
CROSS JOIN generate_series(timestamp '2000-01-01', date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m
WHERE t.enabled;
--> statement-breakpoint
-- cube/sql/delivery_facts_catch_up.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION delivery_facts_catch_up(tenant uuid, wait_ms integer DEFAULT NULL, max_notes integer DEFAULT 2000, up_to bigint DEFAULT NULL)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  prior_wait text := current_setting('lock_timeout');
  taken "delivery_facts_pending"[];
  candidates uuid[];
  prs uuid[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "delivery_facts_pending" p WHERE p.tenant_id = tenant AND p.seq <= COALESCE(up_to, 9223372036854775807)) THEN
    RETURN 0;
  END IF;
  -- A reader waits for another catch-up of its tenant at most this long (lock_not_available after).
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', wait_ms || 'ms', true); END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
  IF wait_ms IS NOT NULL THEN PERFORM set_config('lock_timeout', prior_wait, true); END IF;
  -- A new snapshot (READ COMMITTED): the chunk another catch-up committed before the lock was
  -- granted is gone; the oldest notes left, at most max_notes of them.
  WITH gone AS (
    DELETE FROM "delivery_facts_pending" p
    WHERE p.tenant_id = tenant AND p.seq = ANY (ARRAY(
      SELECT q.seq FROM "delivery_facts_pending" q
      WHERE q.tenant_id = tenant AND q.seq <= COALESCE(up_to, 9223372036854775807)
      ORDER BY q.seq LIMIT max_notes))
    RETURNING p.*
  )
  SELECT coalesce(array_agg(g), '{}') INTO taken FROM gone g;
  IF cardinality(taken) = 0 OR NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = tenant) THEN RETURN cardinality(taken); END IF;
  -- One source per period (METRICS.md): a record of the project's source, written or moved, may
  -- replace (or, gone, restore) the other sources' rows created at or after it; they are taken as
  -- if noted, with their current images, so that everything below recomputes them as well.
  taken := taken || ARRAY(
    SELECT ROW(x.tenant_id, 'd'::"char", x.id, x.project_id, x.external_id, x.is_rollback, x.rollback_from_sha,
               x.status = 'success' AND COALESCE(x.is_production, x.environment = 'production'), x.created_at, NULL::text, NULL::bigint)::"delivery_facts_pending"
    FROM (SELECT n.project_id, min(n.created_at) AS created_at FROM unnest(taken) n
          JOIN "projects" p ON p.id = n.project_id AND p.deployment_source IS NOT NULL
          WHERE n.kind = 'd' AND (NOT EXISTS (SELECT 1 FROM "deployments" e WHERE e.id = n.id)
            OR EXISTS (SELECT 1 FROM "deployments" e WHERE e.id = n.id AND deployment_source_of(e.provider, e.metadata) = p.deployment_source))
          GROUP BY n.project_id) s
    JOIN "projects" p ON p.id = s.project_id
    JOIN "deployments" x ON x.project_id = s.project_id AND x.created_at >= s.created_at
    WHERE deployment_source_of(x.provider, x.metadata) IS DISTINCT FROM p.deployment_source);

  WITH d AS (SELECT * FROM unnest(taken) WHERE kind = 'd'), i AS (SELECT * FROM unnest(taken) WHERE kind = 'i')
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO candidates FROM (
    SELECT d.id FROM d
    UNION ALL
    SELECT x.id FROM d JOIN "deployments" x ON x.project_id = d.project_id AND left(lower(x.sha), 7) = left(lower(d.rollback_from_sha), 7)
    WHERE d.is_rollback
    UNION ALL
    SELECT c.id FROM d JOIN "issues" n ON n.tenant_id = d.tenant_id AND (n.metadata ->> 'causedByDeployment') = d.external_id AND n.type = 'incident'
    CROSS JOIN LATERAL incident_cause_candidates(n.tenant_id, n.project_id, n.metadata ->> 'causedByDeployment', n.created_at) AS c(id)
    UNION ALL
    SELECT c.id FROM d JOIN "issues" n ON n.project_id = d.project_id AND n.type = 'incident'
      AND n.created_at >= d.created_at AND n.created_at <= d.created_at + interval '24 hours'
    CROSS JOIN LATERAL incident_cause_candidates(n.tenant_id, n.project_id, n.metadata ->> 'causedByDeployment', n.created_at) AS c(id)
    UNION ALL
    SELECT c.id FROM i CROSS JOIN LATERAL incident_cause_candidates(i.tenant_id, i.project_id, i.named, i.created_at) AS c(id)
  ) x;
  IF cardinality(candidates) > 0 OR EXISTS (SELECT 1 FROM unnest(taken) WHERE kind = 'd') THEN
    PERFORM deployment_facts_refresh(candidates,
      ARRAY(SELECT project_id FROM unnest(taken) WHERE kind = 'd'),
      ARRAY(SELECT created_at FROM unnest(taken) WHERE kind = 'd'));
  END IF;

  WITH d AS (SELECT * FROM unnest(taken) WHERE kind = 'd')
  SELECT coalesce(array_agg(DISTINCT id), '{}') INTO prs FROM (
    SELECT p.id FROM unnest(taken) p WHERE p.kind = 'p'
    UNION ALL
    SELECT prc.pull_request_id FROM unnest(taken) c JOIN "pull_request_commits" prc ON prc.commit_id = c.id WHERE c.kind = 'c'
    UNION ALL
    SELECT l.pull_request_id FROM d JOIN "change_lead_times" l ON l.deployment_id = d.id
    UNION ALL
    SELECT l.pull_request_id FROM d
    LEFT JOIN LATERAL (
      SELECT e.created_at FROM "deployments" e
      WHERE e.project_id = d.project_id AND e.status = 'success' AND COALESCE(e.is_production, e.environment = 'production')
        AND (e.created_at, e.id) < (d.created_at, d.id)
        AND deployment_replaced_by(e.project_id, deployment_source_of(e.provider, e.metadata), e.created_at) IS NULL
      ORDER BY e.created_at DESC, e.id DESC LIMIT 1
    ) prev ON true
    JOIN "change_lead_times" l ON l.project_id = d.project_id AND l.merged_at >= COALESCE(prev.created_at, '-infinity') AND l.merged_at <= d.created_at
    WHERE d.good
  ) x;
  PERFORM change_lead_times_refresh(prs);
  RETURN cardinality(taken);
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_commit.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A commit's time changed: the commit (the PRs it is linked to are found when caught up).
CREATE OR REPLACE FUNCTION delivery_facts_note_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'c', NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_deployment.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- Row-level AFTER triggers whose WHEN clauses skip, without calling anything, the writes that change
-- no fact: other issue types, webhook re-posts (no column the rules read changed), PRs not merged.
-- (Statement-level triggers with transition tables cost a function call and a tuplestore on every
-- statement, measured at about a tenth more per single-row upsert.)
-- A deployment written: its before and after images. Rows of a tenant being deleted are skipped.
CREATE OR REPLACE FUNCTION delivery_facts_note_deployment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at),
           (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_incident.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- An incident written (an issue of type incident before or after): its images.
CREATE OR REPLACE FUNCTION delivery_facts_note_incident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment'),
           (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_link.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A PR's commits linked or unlinked (also when a commit is deleted: the link goes by cascade): the PR.
CREATE OR REPLACE FUNCTION delivery_facts_note_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (OLD.tenant_id, 'p', OLD.pull_request_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.pull_request_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_project_source.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- A project's source changed: every deployment of it may now count, or no longer.
CREATE OR REPLACE FUNCTION delivery_facts_note_project_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
  SELECT d.tenant_id, 'd', d.id, d.project_id, d.external_id, d.is_rollback, d.rollback_from_sha,
         d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production'), d.created_at
  FROM "deployments" d WHERE d.project_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_note_pull_request.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A pull request whose lead time may change (a deleted PR's row goes with it by cascade).
CREATE OR REPLACE FUNCTION delivery_facts_note_pull_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_rebuild.sql
-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- Every stored fact from scratch (after a TRUNCATE, or a load with triggers off): the pending notes
-- are dropped first, so that every note dropped is covered by the recomputation's later snapshot.
CREATE OR REPLACE FUNCTION delivery_facts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "delivery_facts_pending";
  DELETE FROM "deployment_facts";
  DELETE FROM "change_lead_times";
  PERFORM deployment_facts_refresh(ARRAY(SELECT id FROM "deployments"), '{}', '{}');
  PERFORM change_lead_times_refresh(ARRAY(SELECT id FROM "pull_requests" WHERE merged_at IS NOT NULL));
END $$;
--> statement-breakpoint
-- cube/sql/delivery_facts_truncated.sql
-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION delivery_facts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery_facts_rebuild();
  RETURN NULL;
END $$;
--> statement-breakpoint
-- cube/sql/deployment_facts_refresh.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION deployment_facts_refresh(candidates uuid[], moved_projects uuid[], moved_at timestamptz[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  flipped uuid[];
BEGIN
  WITH computed AS MATERIALIZED (
    SELECT d.id, d.tenant_id, d.project_id, d.created_at, d.status, COALESCE(d.is_production, d.environment = 'production') AS is_production,
           deployment_replaced_by(d.project_id, deployment_source_of(d.provider, d.metadata), d.created_at) AS replaced_by,
           EXISTS (
             SELECT 1 FROM "deployments" r
             WHERE r.project_id = d.project_id AND r.is_rollback
               AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
               AND r.created_at > d.created_at
               AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
               AND deployment_replaced_by(r.project_id, deployment_source_of(r.provider, r.metadata), r.created_at) IS NULL
           ) AS rolled_back,
           EXISTS (
             SELECT 1 FROM "issues" i
             WHERE i.type = 'incident' AND (
               (i.tenant_id = d.tenant_id AND (i.metadata ->> 'causedByDeployment') = d.external_id)
               OR (i.project_id = d.project_id AND i.created_at >= d.created_at AND i.created_at <= d.created_at + interval '24 hours'))
               AND incident_cause(i.tenant_id, i.project_id, i.metadata ->> 'causedByDeployment', i.created_at) = d.id
           ) AS caused_incident
    FROM "deployments" d
    WHERE d.id = ANY (candidates)
  ), prior AS MATERIALIZED (
    SELECT c.id, c.rolled_back, c.replaced_by, (SELECT f.rolled_back FROM "deployment_facts" f WHERE f.deployment_id = c.id) AS was,
           (SELECT f.replaced_by FROM "deployment_facts" f WHERE f.deployment_id = c.id) AS was_replaced_by FROM computed c
  ), written AS (
    INSERT INTO "deployment_facts" AS f (deployment_id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident, replaced_by)
    SELECT id, tenant_id, project_id, created_at, status, is_production, rolled_back, caused_incident, replaced_by FROM computed
    ON CONFLICT (deployment_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, project_id = EXCLUDED.project_id,
      created_at = EXCLUDED.created_at, status = EXCLUDED.status, is_production = EXCLUDED.is_production,
      rolled_back = EXCLUDED.rolled_back, caused_incident = EXCLUDED.caused_incident, replaced_by = EXCLUDED.replaced_by
    WHERE (f.tenant_id, f.project_id, f.created_at, f.status, f.is_production, f.rolled_back, f.caused_incident, f.replaced_by)
      IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.project_id, EXCLUDED.created_at, EXCLUDED.status, EXCLUDED.is_production, EXCLUDED.rolled_back, EXCLUDED.caused_incident, EXCLUDED.replaced_by)
  )
  SELECT coalesce(array_agg(id), '{}') INTO flipped FROM prior
    WHERE (was IS NOT NULL AND was <> rolled_back) OR was_replaced_by IS DISTINCT FROM replaced_by;

  WITH points AS (
    SELECT m.project_id, m.at FROM unnest(moved_projects, moved_at) AS m(project_id, at)
    UNION
    SELECT f.project_id, f.created_at FROM "deployment_facts" f WHERE f.deployment_id = ANY (flipped)
  ), reached AS (
    SELECT r.id FROM points p
    CROSS JOIN LATERAL (
      SELECT f.deployment_id AS id FROM "deployment_facts" f
      WHERE f.project_id = p.project_id AND f.created_at < p.at
        AND f.created_at >= COALESCE((
          SELECT g.created_at FROM "deployment_facts" g
          WHERE g.project_id = p.project_id AND g.status = 'success' AND g.is_production AND NOT g.rolled_back AND g.replaced_by IS NULL AND g.created_at < p.at
          ORDER BY g.created_at DESC LIMIT 1), '-infinity')
      OFFSET 0
    ) r
  ), todo AS (
    SELECT unnest(candidates) AS id UNION SELECT id FROM reached
  ), r AS MATERIALIZED (
    SELECT x.deployment_id AS id,
           CASE WHEN x.replaced_by IS NULL AND x.is_production AND (x.status IN ('failure', 'error') OR x.rolled_back OR x.caused_incident) THEN (
             SELECT n.created_at FROM "deployment_facts" n
             WHERE n.project_id = x.project_id AND n.created_at > x.created_at AND n.status = 'success' AND n.is_production AND NOT n.rolled_back AND n.replaced_by IS NULL
             ORDER BY n.created_at LIMIT 1) END AS recovered_at
    FROM todo CROSS JOIN LATERAL (SELECT * FROM "deployment_facts" x WHERE x.deployment_id = todo.id OFFSET 0) x
  )
  UPDATE "deployment_facts" f SET recovered_at = r.recovered_at
  FROM r
  WHERE f.deployment_id = ANY (ARRAY(SELECT id FROM r)) AND f.deployment_id = r.id AND f.recovered_at IS DISTINCT FROM r.recovered_at;
END $$;
--> statement-breakpoint
-- deploymentSources/sql/deployment_source_of.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- One source per period (issue 46; METRICS.md "Deployment (DORA)", docs/codehost-deployments.md
-- "Switching"). A project's deployments come from one source at a time: after a switch the new
-- source counts from its earliest stored record on, the other sources' rows only before it. Those
-- rows stay stored; their fact row says which source replaced them (deployment_facts.replaced_by)
-- and they count in no measure: not production_deploys, not change failure rate (neither numerator
-- nor denominator), not recovery (neither as the failed nor as the recovering deployment), not as a
-- rollback, and they ship no PR (lead time). The rule is read from the project's current source and
-- its records, so switching back restores them; nothing is deleted.
--
-- * deployment_source_of(provider, metadata): the webhook API's rows (provider manual) are
--   `webhook`; the code host's rows carry theirs in metadata.source (`deployments`,
--   `workflow_runs`, `releases`).
-- * deployment_replaced_by(project, source, at): the project's current source when it is set,
--   differs from `source`, and has a record (any status, environment or withdrawal) created at or
--   before `at`; else null. An index per (project, source, created_at) makes it one lookup.
-- * Notes (the write-noting of 0055): a change of projects.deployment_source notes every deployment
--   of the project; a record of the project's source, written or deleted, also takes (in the
--   catch-up) the other sources' rows created at or after it.
CREATE OR REPLACE FUNCTION deployment_source_of(provider text, metadata jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN provider = 'codehost' THEN metadata ->> 'source' ELSE 'webhook' END
$$;
--> statement-breakpoint
-- deploymentSources/sql/deployment_replaced_by.sql
-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- depends-on: deployment_source_of
CREATE OR REPLACE FUNCTION deployment_replaced_by(project uuid, source text, at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT p.deployment_source FROM "projects" p
  WHERE p.id = project AND p.deployment_source IS NOT NULL AND p.deployment_source IS DISTINCT FROM source
    AND EXISTS (SELECT 1 FROM "deployments" y
                WHERE y.project_id = project AND deployment_source_of(y.provider, y.metadata) = p.deployment_source AND y.created_at <= at)
$$;
--> statement-breakpoint
-- cube/sql/incident_cause.sql
-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
-- An incident's causing deployment: the rule of cube_incidents (migration 0007), for one incident.
-- PL/pgSQL so that its two index lookups are planned once per connection; inside the triggers the
-- view's two LATERAL subqueries were planned again on every write.
CREATE OR REPLACE FUNCTION incident_cause(tenant uuid, project uuid, named text, opened timestamptz) RETURNS uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  cause uuid;
BEGIN
  IF named IS NOT NULL THEN
    SELECT d.id INTO cause FROM "deployments" d
    WHERE d.tenant_id = tenant AND d.external_id = named
    ORDER BY (d.project_id = project) DESC, d.created_at DESC, d.id
    LIMIT 1;
    IF cause IS NOT NULL THEN RETURN cause; END IF;
  END IF;
  SELECT d.id INTO cause FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
  ORDER BY d.created_at DESC, d.id
  LIMIT 1;
  RETURN cause;
END $$;
--> statement-breakpoint
-- cube/sql/incident_cause_candidates.sql
-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
-- The deployments an incident may name as its cause (cube_incidents): those whose externalId its
-- metadata names, and the successful production deployments of its project in the 24 h before it.
-- Its cause before and after a write is among these, taken before and after.
CREATE OR REPLACE FUNCTION incident_cause_candidates(tenant uuid, project uuid, named text, opened timestamptz) RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
  SELECT d.id FROM "deployments" d WHERE named IS NOT NULL AND d.tenant_id = tenant AND d.external_id = named
  UNION
  SELECT d.id FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
$$;
--> statement-breakpoint
-- cube/sql/pull_request_ai_assisted.sql
-- Defined by versioned migrations up to 0003_activity_facts; since then by this file (docs/sql-source.md).
-- The old view keeps its columns for whoever reads it: the session reason now takes every high
-- signal, the rest comes from pull_request_attribution (docs/ai-attribution.md).
-- depends-on: pull_request_attribution
CREATE OR REPLACE VIEW "public"."pull_request_ai_assisted" AS
SELECT a.pull_request_id, a.tenant_id,
       (a.ai_via_session OR a.ai_via_telemetry_commit OR a.ai_via_vendor_commit) AS via_session,
       a.ai_via_trailer AS via_trailer, a.ai_via_label AS via_label, a.ai_assisted
FROM "pull_request_attribution" a;
--> statement-breakpoint
-- surveys/sql/survey_team_months.sql
-- Defined by versioned migrations up to 0005_survey_team_months_view; since then by this file (docs/sql-source.md).
-- Perception measures per team and month (METRICS.md "Perception"): a survey counts in every
-- calendar month its answer window overlaps (opens_on to closes_on, or to the day it was closed
-- early). The score is shown only from 3 responses on, so a small team cannot be de-anonymised.
CREATE OR REPLACE VIEW "survey_team_months" AS
WITH survey_months AS (
  SELECT s.id AS survey_id, s.tenant_id, gs::date AS month
  FROM "surveys" s
  CROSS JOIN LATERAL generate_series(
    date_trunc('month', s.opens_on::timestamp),
    date_trunc('month', LEAST(s.closes_on, COALESCE((s.closed_at AT TIME ZONE 'UTC')::date, s.closes_on))::timestamp),
    interval '1 month') AS gs
),
invited AS (
  SELECT survey_id, team_id, count(*)::int AS invitations FROM "survey_invitations" GROUP BY survey_id, team_id
),
answered AS (
  SELECT survey_id, team_id, count(*)::int AS responses, sum(q1 + q2 + q3 + q4 + q5)::int AS answer_sum
  FROM "survey_responses" GROUP BY survey_id, team_id
),
per_team AS (
  SELECT sm.tenant_id, i.team_id, sm.month,
         sum(i.invitations)::int AS invitations,
         COALESCE(sum(a.responses), 0)::int AS responses,
         COALESCE(sum(a.answer_sum), 0)::int AS answer_sum
  FROM survey_months sm
  JOIN invited i ON i.survey_id = sm.survey_id
  LEFT JOIN answered a ON a.survey_id = i.survey_id AND a.team_id = i.team_id
  GROUP BY sm.tenant_id, i.team_id, sm.month
)
SELECT tenant_id, team_id, month, invitations, responses, answer_sum,
       responses * 5 AS answer_count,
       CASE WHEN invitations > 0 THEN responses::numeric / invitations END AS response_rate,
       CASE WHEN responses >= 3 THEN (answer_sum::numeric / (responses * 5) - 1) * 25 END AS experience_score
FROM per_team;
--> statement-breakpoint
-- surveys/sql/survey_team_results.sql
-- Defined by versioned migrations up to 0026_survey_team_results; since then by this file (docs/sql-source.md).
-- Results of each survey per invited team (the `survey_results` cube, Settings › Surveys): counts
-- and answer sums only; the score is shown from 3 responses on (METRICS.md "Perception"), which
-- the cube measure decides, as `survey_team_months` does for months.
CREATE OR REPLACE VIEW "survey_team_results" AS
SELECT i.tenant_id, i.survey_id, i.team_id, i.invitations,
       COALESCE(a.responses, 0)::int AS responses,
       COALESCE(a.answer_sum, 0)::int AS answer_sum,
       (COALESCE(a.responses, 0) * 5)::int AS answer_count
FROM (
  SELECT tenant_id, survey_id, team_id, count(*)::int AS invitations
  FROM "survey_invitations" GROUP BY tenant_id, survey_id, team_id
) i
LEFT JOIN (
  SELECT survey_id, team_id, count(*)::int AS responses, sum(q1 + q2 + q3 + q4 + q5)::int AS answer_sum
  FROM "survey_responses" GROUP BY survey_id, team_id
) a ON a.survey_id = i.survey_id AND a.team_id = i.team_id;
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_activity";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_sessions";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_usage";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."author_activity";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."change_lead_times";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."deployments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."incidents";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."issues";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."memberships";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."people";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."projects";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_request_reviews";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_requests";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."seats";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."session_assessments";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."survey_responses";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."survey_results";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."team_months";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."teams";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."team_month";
--> statement-breakpoint
CREATE VIEW "bi"."ai_activity" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.kind AS "kind",
  s.happened_at AS "happened_at",
  s.user_key AS "user_key",
  s.tool AS "tool",
  s.sources AS "sources",
  s.ai_lines_added AS "ai_lines_added_value",
  s.pr_lines_added AS "merged_pr_lines_added_value",
  s.tokens AS "ai_tool_tokens_value",
  s.merged_prs AS "merged_prs_value",
  s.edits_accepted AS "edits_accepted_value",
  s.edits_offered AS "edits_offered_value"
FROM "public"."cube_ai_activity" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_activity" IS 'The amounts AI coding tools report per person and day (telemetry and the vendors'' daily reports: AI-written lines, tokens, edits offered and accepted), one row per person, day and tool whatever its sources (each amount the greatest any source reports), beside the merged pull requests they are divided by. A day row counts for every enabled team of its person; a PR row for its project''s owning team. docs/ai-measures.md.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."id" IS 'A person-day-tool (a digest of person, day and tool) or a merged pull request (its id; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."kind" IS 'day (a person''s AI activity on a day with one tool) or pr (a merged pull request).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."happened_at" IS 'The day (midnight UTC) of a day row, the merge time of a PR row; group every measure of the cube by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."user_key" IS 'As ai_sessions.user_key (a person, or the digest of an unmatched e-mail or login); empty on a PR row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."tool" IS 'The AI tool of a day row (claude-code, codex, copilot, cursor, …).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."sources" IS 'Every source that reported the day (telemetry, claude_code_analytics, copilot, cursor), sorted, joined by ", "; code host on a PR row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."ai_lines_added_value" IS 'ai_lines_added: Lines added by AI tools in the period as the sources report them (telemetry lines_of_code added; Claude Code Analytics lines added; Copilot and Cursor accepted lines), per person, day and tool the greatest any source reports.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."merged_pr_lines_added_value" IS 'merged_pr_lines_added: Added lines of the pull requests merged in the period (the code host''s additions); the denominator of ai_added_line_share.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."ai_tool_tokens_value" IS 'ai_tool_tokens: Input plus output tokens the AI coding tools report for the period (telemetry token.usage, the vendors'' daily reports; cache tokens not counted), per person, day and tool the greatest any source reports. Tokens, never money.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."merged_prs_value" IS 'merged_prs: Pull requests merged in the period (as pull_requests.prs_merged); the denominator of tokens_per_merged_pr.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."edits_accepted_value" IS 'edits_accepted: Edits (Claude Code code_edit_tool decisions, Copilot and Cursor suggestions) accepted in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_activity"."edits_offered_value" IS 'edits_offered: Edits offered in the period, accepted plus rejected; the denominator of edit_acceptance_rate.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_commits" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.committed_at AS "committed_at",
  s.id AS "id",
  s.sha AS "sha",
  s.project_key AS "project_key",
  s.ai_tools AS "ai_tools",
  s.ai_session_ids AS "ai_session_ids",
  s.ai_user_keys AS "ai_user_keys",
  s.ai_sources AS "sources",
  s.id AS "ai_commits_value"
FROM "public"."cube_ai_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_commits" IS 'Commits that an AI session names, or in which a vendor reports AI-written lines (Cursor AI Code Tracking, matched by sha), counted for every enabled team of the session''s (or the vendor record''s) person. Month = month of the commit time.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."row_key" IS 'Link × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."committed_at" IS 'Commit time; group ai_commits by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."id" IS 'The commit (UUID); ai_commits counts these, so a commit named by two sessions, or counted for two teams, is one commit.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."sha" IS 'The commit''s sha as the code host sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."project_key" IS 'The repository (project key) the commit was pushed to.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_tools" IS 'The tools of every AI session that names the commit and of every vendor reporting AI lines in it, sorted and joined by ", " (the same for each of the commit''s rows).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_session_ids" IS 'Every AI session that names the commit (UUIDs, sorted, joined by ", ").';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_user_keys" IS 'For every AI session that names the commit, the person whose e-mail identity matches the uploader, or the uploading user when none matches; for every vendor record of it, the person of its e-mail (as ai_sessions.user_key; UUIDs, sorted, joined by ", ").';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."sources" IS 'Every source that links the commit: each naming session''s (upload, telemetry) and each vendor reporting AI lines in it (cursor), sorted, joined by ", " (the same for each of the commit''s rows).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_commits"."ai_commits_value" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member or reported by a vendor as containing AI-written lines.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_sessions" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.id AS "id",
  s.user_key AS "user_key",
  ((s.person_id IS NOT NULL)) AS "person_matched",
  s.source AS "source",
  s.tool AS "tool",
  s.model AS "model",
  s.started_at AS "started_at",
  s.ended_at AS "ended_at",
  s.id AS "ai_sessions_value",
  s.user_key AS "ai_active_users_value"
FROM "public"."cube_ai_sessions" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_sessions" IS 'AI coding sessions, uploaded by users or built from the tools'' OpenTelemetry, and the days of activity of a person from telemetry or a vendor''s daily report (Claude Code Analytics, Copilot, Cursor; rows without a session id, which ai_sessions does not count and ai_active_users does). A row belongs to the person whose e-mail identity matches the uploader, the telemetry''s user.email or the report''s e-mail, or whose code-host username matches the report''s login (Copilot), and counts for every enabled team of that person (a person on two teams counts in both). Month = month the session started, or of the day.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."row_key" IS 'Session × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."team_id" IS 'Team of the session''s person (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."id" IS 'The session (UUID); ai_sessions counts these, one per session however many teams its person is on. Empty on a person-day row (telemetry or vendor report).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."user_key" IS 'The person whose identity matches the uploader, the telemetry''s user.email or the vendor report''s e-mail or login; when none matches, the uploading user, or a digest of the e-mail (or login) (UUID); ai_active_users counts these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."person_matched" IS 'Whether the uploader''s, the telemetry''s or the vendor report''s e-mail (or login) matched a person of the register (user_key is then a person).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."source" IS 'Where the row came from, upload (POST /api/sessions), telemetry (the tool''s OpenTelemetry, a session or a person-day), or a vendor''s daily report (claude_code_analytics, copilot, cursor; a person-day).
sources: Every source of the rows counted (upload, telemetry, claude_code_analytics, copilot, cursor), sorted, joined by ", "; a person active through two sources on a day is one active user, and this names both.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."tool" IS 'AI coding tool that produced the session, as the uploader named it (for example claude-code, cursor, codex).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."model" IS 'Model the session used, as the uploader named it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."started_at" IS 'Session start (a person-day''s midnight UTC); group ai_sessions and ai_active_users by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ended_at" IS 'Session end, as uploaded (empty when the uploader gave none).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_sessions_value" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_sessions"."ai_active_users_value" IS 'ai_active_users: People (or, unmatched, uploading users or reported e-mails and logins) with at least one AI session started, or a telemetry or vendor-report day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
CREATE VIEW "bi"."ai_usage" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.feature AS "feature",
  s.model AS "model",
  s.outcome AS "outcome",
  s.created_at AS "created_at",
  (s.input_tokens + s.output_tokens) AS "ai_tokens_value"
FROM "public"."ai_calls" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."ai_usage" IS 'Every call this service made to a language model for its AI features (session summaries, quality assessments, the notebook), successful or not, with its tokens. Month = month of the call.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."id" IS 'Call id';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."feature" IS 'summary, assessment or notebook.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."model" IS 'The model called.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."outcome" IS 'ok, rate_limited, server_error, timeout, invalid_output, client_error or network_error.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."created_at" IS 'Time of the call; group ai_tokens by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."ai_usage"."ai_tokens_value" IS 'ai_tokens: Input plus output tokens of the model calls in the period, what the monthly token budget counts.';
--> statement-breakpoint
CREATE VIEW "bi"."author_activity" WITH (security_barrier = true) AS
SELECT
  (s.kind || ':' || s.fact_id::text) AS "id",
  s.team_id AS "team_id",
  s.kind AS "kind",
  s.happened_at AS "happened_at",
  s.author_key AS "active_authors_value"
FROM "public"."cube_author_activity" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."author_activity" IS 'One row per merged pull request (at mergedAt) and per commit (at its commit time), with the author matched to a person through the person''s identities; an unmatched author is counted by username (or e-mail).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."id" IS 'The fact, as kind:id (a merged pull request or a commit).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."kind" IS 'pull_request or commit.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."happened_at" IS 'Merge time of a pull request or time of a commit; group active_authors by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."author_activity"."active_authors_value" IS 'active_authors: Distinct authors of PRs merged or commits made in the period.';
--> statement-breakpoint
CREATE VIEW "bi"."change_lead_times" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.deployment_id AS "deployment_id",
  s.first_commit_known AS "first_commit_known",
  s.first_commit_at AS "first_commit_at",
  s.merged_at AS "merged_at",
  s.deployed_at AS "deployed_at",
  s.is_deployed AS "is_deployed",
  s.lead_time_seconds AS "lead_time_seconds",
  s.deployment_external_id AS "deployment_external_id",
  s.project_key AS "project_key",
  s.number AS "number",
  s.title AS "title",
  s.author_username AS "author_username",
  s.opened_at AS "opened_at",
  s.ai_attribution AS "ai_attribution",
  s.ai_attribution_evidence AS "ai_attribution_evidence",
  COALESCE((s.is_deployed), false) AS "in_deployed_changes",
  COALESCE((NOT s.is_deployed), false) AS "in_undeployed_changes"
FROM "public"."cube_change_lead_times" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."change_lead_times" IS 'Merged pull requests of the tenant''s projects, each with the first successful production deployment of the same project created at or after the merge (production = isProduction, or when absent environment production), attributed to the team owning the project. A change starts at the PR''s first commit (its createdAt when no commit is known). Month of a lead time measure = month of the deployment; a PR never followed by such a deployment has no lead time and counts as undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."id" IS 'Merged pull request (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."team_id" IS 'Team owning the pull request''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployment_id" IS 'The first successful production deployment of the project created at or after the merge; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."first_commit_known" IS 'Whether a commit is linked to the pull request; when not, the change starts at the PR''s createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."first_commit_at" IS 'Time of the PR''s earliest linked commit, else the PR''s createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."merged_at" IS 'Group undeployed_changes by this time dimension (an undeployed change has no deployed_at).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployed_at" IS 'Time (createdAt) of the deployment that shipped the change. Group lead_time_for_changes_p50_seconds and deployed_changes by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."is_deployed" IS 'A successful production deployment of the same project followed the merge; the rows deployed_changes counts (not deployed = undeployed_changes).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."lead_time_seconds" IS 'Seconds from the first commit (else the PR''s createdAt) to the deploying deployment; the value lead_time_for_changes_p50_seconds takes the median of. Empty when not deployed.
lead_time_for_changes_p50_seconds: DORA lead time for changes. Median seconds from a merged PR''s first commit (its createdAt when no commit is known) to the first successful production deployment of the same project created at or after the merge, over the deployments created in the period; empty when none.
lead_time_for_changes_p90_seconds: 90th percentile of the lead time for changes over the deployments created in the period (the same changes as lead_time_for_changes_p50_seconds); empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."deployment_external_id" IS 'externalId of the deployment that shipped the change; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."number" IS 'The PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."title" IS 'The PR''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."author_username" IS 'Code-host username of the PR''s author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."opened_at" IS 'PR opened (createdAt).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."ai_attribution" IS 'The PR''s AI attribution level, the highest its evidence reaches: high (a linked AI session, uploaded, captured or from telemetry, names it, its branch or one of its commits; or a vendor reports AI-written lines in one of its commits), medium (an AI co-author, Made-with or Claude-Session trailer; the label ai-assisted or one the owner configured; an agent branch prefix; an AI agent author), low (only its author''s AI activity on a day of one of its commits), none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."ai_attribution_evidence" IS 'Why the PR has its level, in words: each signal of the level with its source, e.g. ''trailer Co-authored-by: Claude <noreply@anthropic.com> (commit 1a2b3c4)''; empty for none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_deployed_changes" IS 'deployed_changes: Merged pull requests whose first successful production deployment of the same project at or after the merge was created in the period; the n of lead_time_for_changes_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."change_lead_times"."in_undeployed_changes" IS 'undeployed_changes: Merged pull requests not (yet) followed by a successful production deployment of the same project created at or after the merge; they have no lead time. Group by merged_at.';
--> statement-breakpoint
CREATE VIEW "bi"."commits" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.has_ai_coauthor AS "has_ai_coauthor",
  s.committed_at AS "committed_at",
  s.ai_attribution AS "ai_attribution",
  s.ai_attribution_evidence AS "ai_attribution_evidence"
FROM "public"."cube_commits" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."commits" IS 'Commits pushed to the tenant''s projects, attributed to the team owning the project. Month = month of the commit time.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."id" IS 'Commit (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."has_ai_coauthor" IS 'Whether the commit message carries an AI co-author trailer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."committed_at" IS 'Commit time; group commits by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."ai_attribution" IS 'The commit''s AI attribution level: high (an AI session, uploaded, captured or from telemetry, names it; or a vendor reports AI-written lines in it), medium (an AI co-author, Made-with or Claude-Session trailer), low (only its author''s AI activity that day), none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."commits"."ai_attribution_evidence" IS 'Why the commit has its level, in words, e.g. ''session … (telemetry) names commit 1a2b3c4 in a claude-code tool_result''; empty for none.';
--> statement-breakpoint
CREATE VIEW "bi"."deployments" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.environment AS "environment",
  s.status AS "status",
  s.is_production AS "is_production",
  s.is_failed AS "is_failed",
  s.rolled_back AS "rolled_back",
  s.created_at AS "created_at",
  s.is_successful_production AS "is_successful_production",
  s.is_finished_production AS "is_finished_production",
  s.is_recovered AS "is_recovered",
  s.caused_incident AS "caused_incident",
  s.external_id AS "external_id",
  s.sha AS "sha",
  s.project_key AS "project_key",
  s.rolled_back_by AS "rolled_back_by",
  s.rolled_back_at AS "rolled_back_at",
  s.caused_incident_key AS "caused_incident_key",
  s.recovered_at AS "recovered_at",
  s.recovered_by AS "recovered_by",
  s.recovery_seconds AS "recovery_seconds",
  s.replaced_by AS "replaced_by",
  s.is_replaced AS "is_replaced",
  s.any_source_successful_production AS "any_source_successful_production",
  s.any_source_finished_production AS "any_source_finished_production",
  s.any_source_failed AS "any_source_failed",
  s.is_rework AS "is_rework",
  s.rework_because AS "rework_because",
  COALESCE((s.any_source_successful_production AND NOT s.is_replaced), false) AS "in_production_deploys",
  COALESCE((s.any_source_finished_production AND NOT s.is_replaced), false) AS "in_finished_production_deploys",
  COALESCE((s.any_source_failed AND NOT s.is_replaced), false) AS "in_failed_production_deploys",
  COALESCE((s.is_recovered), false) AS "in_recovered_deploys",
  COALESCE((s.is_rework), false) AS "in_rework_deploys"
FROM "public"."cube_deployments" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."deployments" IS 'Deployments of the tenant''s projects, attributed to the team owning the project. Production = isProduction, or when absent environment production. Failed = production and (status failure or error, or rolled back by a later rollback of the same project naming its sha, or the cause of an incident). Month = month of createdAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."id" IS 'Deployment (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."environment" IS 'Target environment as sent. A deployment is production when is_production is true, or when it is absent and this is production.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."status" IS 'Last reported status. Finished = success, failure or error; failed = failure or error (or rolled back, or caused an incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_production" IS 'Production deployment: isProduction, or when absent environment = production.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_failed" IS 'Failed production deployment (status failure or error, rolled back later, or the cause of an incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back" IS 'A later rollback deployment of the same project names this deployment''s sha.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."created_at" IS 'Group every deployment measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_successful_production" IS 'Production deployment with status success; the rows production_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_finished_production" IS 'Production deployment with status success, failure or error; the rows finished_production_deploys counts (change_failure_rate''s denominator).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_recovered" IS 'Failed production deployment followed by a successful, not rolled back, production deployment of the same project; the rows recovered_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."caused_incident" IS 'The deployment is the cause of an incident (see incidents.caused_by_deployment_id).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."external_id" IS 'The deployment''s externalId as the source sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."sha" IS 'Commit sha the deployment deployed, as sent.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."project_key" IS 'Key of the deployment''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back_by" IS 'externalId of the first later rollback of the same project naming this deployment''s sha; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rolled_back_at" IS 'Time (createdAt) of that rollback; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."caused_incident_key" IS 'externalId of the first incident this deployment caused; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovered_at" IS 'Time of the next successful, not rolled back, production deployment of the same project after a failed one; empty when not failed or not (yet) recovered.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovered_by" IS 'externalId of that recovering deployment; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovery_seconds" IS 'Seconds from this failed deployment to its recovery; the value failed_deployment_recovery_time_p50_seconds takes the median of. Empty when not recovered.
failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.
failed_deployment_recovery_time_p90_seconds: 90th percentile of the failed deployment recovery time over the failed production deployments created in the period that recovered; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."replaced_by" IS 'The deployment source whose period this row falls in, when it is not the row''s own (webhook, deployments, workflow_runs, releases): the row is stored and counted in no measure; switching back restores it. Empty on a counted row.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_replaced" IS 'The row falls in the period of its project''s current deployment source, another one (replaced_by); no measure counts it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_successful_production" IS 'Production deployment with status success, whether or not replaced by another source; production_deploys counts those not replaced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_finished_production" IS 'Production deployment with status success, failure or error, whether or not replaced by another source; finished_production_deploys counts those not replaced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."any_source_failed" IS 'Failed production deployment (status failure or error, rolled back later, or the cause of an incident), whether or not replaced by another source; failed_production_deploys counts those not replaced (is_failed).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."is_rework" IS 'A finished production deployment that is a rollback (isRollback), or the first successful, not rolled back, production deployment after a failed one of the same project (a recovery, as recovered_by); the rows rework_deploys counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."rework_because" IS 'Why the deployment is rework: rollback from <sha>, and/or recovery after <externalId of the failed deployments it recovered> failed; empty when not rework.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_production_deploys" IS 'production_deploys: Successful production deployments created in the period (of each project''s source for that period; rows replaced by another source are not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_finished_production_deploys" IS 'finished_production_deploys: Production deployments with status success, failure or error created in the period; the denominator of change_failure_rate.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_failed_production_deploys" IS 'failed_production_deploys: Production deployments created in the period that failed (status failure or error, rolled back later, or caused an incident); each counts once.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_recovered_deploys" IS 'recovered_deploys: Failed production deployments followed by a successful, not rolled back, production deployment of the same project; the n of failed_deployment_recovery_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."in_rework_deploys" IS 'rework_deploys: Finished production deployments created in the period that are a rollback or the recovery of a failed one (METRICS.md Rework); the numerator of rework_rate.';
--> statement-breakpoint
CREATE VIEW "bi"."incidents" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.caused_by_deployment_id AS "caused_by_deployment_id",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  s.is_restored AS "is_restored",
  s.restore_seconds AS "restore_seconds",
  s.external_id AS "external_id",
  s.title AS "title",
  s.project_key AS "project_key",
  s.cause_rule AS "cause_rule",
  s.caused_by_external_id AS "caused_by_external_id",
  COALESCE((s.is_restored), false) AS "in_incidents_restored"
FROM "public"."cube_incidents" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."incidents" IS 'Issues of type incident, each with the deployment that caused it (metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before the incident was created, else none). Month of a restore measure = month of closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."id" IS 'Incident (UUID; an issue of type incident).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."team_id" IS 'Team owning the incident''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."caused_by_deployment_id" IS 'Deployment that caused the incident (UUID): metadata.causedByDeployment, else the latest successful production deployment of the project in the 24 hours before; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."created_at" IS 'Incident opened; group incidents_opened by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."closed_at" IS 'Group mttr_p50_seconds and incidents_restored by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."is_restored" IS 'Closed (state closed with a closedAt); the rows incidents_restored counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."restore_seconds" IS 'closedAt − createdAt in seconds of a restored incident (else empty); the value mttr_p50_seconds takes the median of.
mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.
mttr_p90_seconds: 90th percentile of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."external_id" IS 'The incident''s key (externalId) in its tracker.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."title" IS 'The incident''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."project_key" IS 'Key of the incident''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."cause_rule" IS 'named: metadata.causedByDeployment names the deployment; recent: the latest successful production deployment of the project in the 24 hours before; empty when no cause.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."caused_by_external_id" IS 'externalId of the deployment that caused the incident; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."in_incidents_restored" IS 'incidents_restored: Incidents closed (state closed) in the period; the n of mttr_p50_seconds.';
--> statement-breakpoint
CREATE VIEW "bi"."issues" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.type AS "type",
  s.state AS "state",
  s.created_at AS "created_at",
  s.closed_at AS "closed_at",
  s.is_closed AS "is_closed",
  s.lead_time_seconds AS "lead_time_seconds",
  s.external_id AS "external_id",
  s.title AS "title",
  s.project_key AS "project_key",
  COALESCE((s.is_closed), false) AS "in_issues_closed"
FROM "public"."cube_issues" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."issues" IS 'Issues of the tenant''s projects, attributed to the team owning the project. Month of an issue measure = month of its closedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."id" IS 'Issue (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."type" IS 'feature, bug, chore, discovery, incident or other.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."state" IS 'Current state of the issue.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."created_at" IS 'Issue opened.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."closed_at" IS 'Group issues_closed and issue_lead_time_p50_seconds by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."is_closed" IS 'State closed with a closedAt; the rows issues_closed counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."lead_time_seconds" IS 'closedAt − createdAt in seconds of a closed issue (else empty); the value issue_lead_time_p50_seconds takes the median of.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.
issue_lead_time_p90_seconds: 90th percentile of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."external_id" IS 'The issue''s key (externalId) in its tracker.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."title" IS 'The issue''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."project_key" IS 'Key of the issue''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."in_issues_closed" IS 'issues_closed: Issues closed (state closed) with closedAt in the period. Also the n of issue_lead_time_p50_seconds.';
--> statement-breakpoint
CREATE VIEW "bi"."memberships" WITH (security_barrier = true) AS
SELECT
  (s.team_id::text || ':' || s.person_id::text) AS "id",
  s.team_id AS "team_id",
  s.person_id AS "person_id",
  s.membership_source AS "membership_source",
  s.person_id AS "headcount_value",
  COALESCE((s.membership_source = 'register'), false) AS "in_register_headcount",
  COALESCE((s.membership_source = 'manual'), false) AS "in_manual_headcount"
FROM "public"."team_memberships" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."memberships" IS 'Current membership of people in teams (no history is kept). A person on two teams has two memberships.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."id" IS 'Membership (person × team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."person_id" IS 'Person (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."membership_source" IS 'register (from the register import) or manual.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."headcount_value" IS 'headcount: People currently members of the team, however they came (register import or added by hand, `manual`). Attribution of a person''s facts uses these memberships. A distinct count of people, so a person on two teams counts once for the organisation (for a team it is its memberships). Not the export''s headcount, which is register_headcount.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."in_register_headcount" IS 'register_headcount: Members the last register import left in the team (no history is kept); the team-baseline export''s headcount. Memberships added by hand are not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."memberships"."in_manual_headcount" IS 'manual_headcount: Current memberships added through the API or web app (membership_source manual), which the register does not know; they count for attribution, not for headcount.';
--> statement-breakpoint
CREATE VIEW "bi"."people" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.employment_type AS "employment_type",
  s.supplier_name AS "supplier_name",
  s.cost_centre_code AS "cost_centre_code",
  s.location_country AS "location_country"
FROM "public"."people" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."people" IS 'People of the register (employees, contractors, supplier staff).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."id" IS 'Person (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."employment_type" IS 'employee, contractor, supplier or unknown.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."supplier_name" IS 'Supplier employing the person, for supplier staff.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."cost_centre_code" IS 'Cost centre of the person from the register (a join key for finance, not a cost).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."people"."location_country" IS 'Country of the person from the register.';
--> statement-breakpoint
CREATE VIEW "bi"."projects" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.project_key AS "project_key",
  s.provider AS "provider",
  s.owning_team_id AS "owning_team_id",
  COALESCE((EXISTS (SELECT 1 FROM deployments d WHERE d.project_id = s.id)), false) AS "in_deployment_sources"
FROM "public"."projects" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."projects" IS 'Repositories (owner/repo). A project has at most one owning team; facts of an unowned project count for no team but appear in tenant-wide queries.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."id" IS 'Project (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."project_key" IS 'The repository as owner/repo.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."provider" IS 'codehost when the code-host application reports the repository, else manual (named only by the webhook API, a tracker mapping or a team''s ownership). One project per repository whatever the source of its facts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."owning_team_id" IS 'Team owning the project (UUID); empty for an unowned project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."projects"."in_deployment_sources" IS 'deployment_sources: Projects that have ever sent a deployment (any environment or status). 0 for a team means the team has no deployment source, which is why its deployment measures are empty rather than zero.';
--> statement-breakpoint
CREATE VIEW "bi"."pull_request_reviews" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.reviewer AS "reviewer",
  s.state AS "state",
  s.submitted_at AS "submitted_at",
  s.is_counted AS "is_counted",
  s.number AS "number",
  s.project_key AS "project_key",
  s.title AS "title",
  s.author_username AS "author_username",
  COALESCE((s.is_counted), false) AS "in_reviews_given",
  COALESCE((s.is_counted), false) AS "in_reviewers",
  s.reviewer AS "reviewers_value"
FROM "public"."cube_pull_request_reviews" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."pull_request_reviews" IS 'Reviews submitted on the pull requests of the tenant''s projects (approved, changes requested, commented; a review later dismissed still counts as given), attributed to the team owning the project. A review counts as given when its reviewer is not the PR''s author and not a bot. Month = month of the submission.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."id" IS 'The review: <project id>:<the code host''s review id>.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."team_id" IS 'Team owning the pull request''s project.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."reviewer" IS 'Code-host username of the reviewer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."state" IS 'The review as submitted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."submitted_at" IS 'Group every review measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."is_counted" IS 'The reviewer is not the PR''s author and not a bot; the rows reviews_given counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."number" IS 'The reviewed PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."title" IS 'The reviewed PR''s title.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."author_username" IS 'Code-host username of the reviewed PR''s author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."in_reviews_given" IS 'reviews_given: Reviews submitted in the period by someone other than the PR''s author and not a bot (a re-requested review answered again counts again).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."in_reviewers" IS 'reviewers: Distinct reviewers who gave a review in the period; the n of reviews_per_reviewer.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_request_reviews"."reviewers_value" IS 'reviewers: Distinct reviewers who gave a review in the period; the n of reviews_per_reviewer.';
--> statement-breakpoint
CREATE VIEW "bi"."pull_requests" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.team_id AS "team_id",
  s.state AS "state",
  s.author_username AS "author_username",
  s.ai_assisted AS "ai_assisted",
  s.created_at AS "created_at",
  s.merged_at AS "merged_at",
  s.is_merged AS "is_merged",
  s.cycle_time_seconds AS "cycle_time_seconds",
  s.number AS "number",
  s.title AS "title",
  s.project_key AS "project_key",
  s.ai_via_session AS "ai_via_session",
  s.ai_via_trailer AS "ai_via_trailer",
  s.ai_via_label AS "ai_via_label",
  s.ai_via_telemetry_commit AS "ai_via_telemetry_commit",
  s.ai_via_vendor_commit AS "ai_via_vendor_commit",
  s.ai_via_branch AS "ai_via_branch",
  s.ai_via_bot AS "ai_via_bot",
  s.ai_attribution AS "ai_attribution",
  s.ai_attribution_evidence AS "ai_attribution_evidence",
  s.ready_at AS "ready_at",
  s.first_review_at AS "first_review_at",
  s.first_commit_at AS "first_commit_at",
  s.deployed_at AS "deployed_at",
  s.has_coding_time AS "has_coding_time",
  s.is_reviewed AS "is_reviewed",
  s.merged_without_review AS "merged_without_review",
  s.is_deployed AS "is_deployed",
  s.coding_time_seconds AS "coding_time_seconds",
  s.pickup_time_seconds AS "pickup_time_seconds",
  s.review_time_seconds AS "review_time_seconds",
  s.deploy_time_seconds AS "deploy_time_seconds",
  s.pr_size AS "pr_size",
  s.deployment_external_id AS "deployment_external_id",
  s.is_reverted AS "is_reverted",
  s.reverted_because AS "reverted_because",
  COALESCE((s.is_merged), false) AS "in_prs_merged",
  (CASE WHEN s.is_merged THEN s.change_volume END) AS "ccv_total_value",
  (CASE WHEN s.is_merged THEN s.change_effort_units END) AS "ceu_total_value",
  COALESCE((s.is_merged AND s.ai_assisted), false) AS "in_ai_assisted_prs_merged",
  COALESCE((s.has_coding_time), false) AS "in_coding_time_count",
  COALESCE((s.is_reviewed), false) AS "in_pickup_time_count",
  COALESCE((s.is_reviewed), false) AS "in_review_time_count",
  COALESCE((s.is_deployed), false) AS "in_deploy_time_count",
  COALESCE((s.merged_without_review), false) AS "in_merged_without_review_prs",
  COALESCE((s.is_reverted), false) AS "in_reverted_prs"
FROM "public"."cube_pull_requests" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."pull_requests" IS 'Pull requests of the tenant''s projects, attributed to the team owning the project. Month of a merge measure = month of mergedAt.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."id" IS 'Pull request (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."team_id" IS 'Team the row counts for (UUID; group by teams.slug or teams.name to read it).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."state" IS 'open, closed (without merge) or merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."author_username" IS 'Code-host username of the author.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_assisted" IS 'The PR''s AI attribution level is high or medium (ai_attribution); what ai_assisted_pr_share counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."created_at" IS 'PR opened.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."merged_at" IS 'Group every merge measure by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_merged" IS 'The PR has a mergedAt; the rows prs_merged counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."cycle_time_seconds" IS 'mergedAt − createdAt in seconds (empty when not merged); the value pr_cycle_time_p50_seconds takes the median of.
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.
pr_cycle_time_p90_seconds: 90th percentile of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period (nine in ten merged sooner or as soon); empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."number" IS 'The PR''s number in its repository.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."title" IS 'The PR''s title as the code host sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."project_key" IS 'Key of the PR''s project (the repository).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_session" IS 'An uploaded or captured AI session names the PR, its branch or one of its commits (a high signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_trailer" IS 'A commit of the PR has an AI co-author, Made-with or Claude-Session trailer (a medium signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_label" IS 'The PR carries the label ai-assisted or a label the owner configured (a medium signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_telemetry_commit" IS 'An AI session built from telemetry names one of the PR''s commits (a tool_result''s git commit; a high signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_vendor_commit" IS 'A vendor reports AI-written lines in one of the PR''s commits (a high signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_branch" IS 'The PR''s head branch starts with an agent prefix (copilot/, codex/, claude/, cursor/; a medium signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_via_bot" IS 'The PR''s author is an AI agent account, e.g. copilot-swe-agent[bot] or devin-ai-integration[bot] (a medium signal of ai_attribution).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_attribution" IS 'The PR''s AI attribution level, the highest its evidence reaches: high (a linked AI session, uploaded, captured or from telemetry, names it, its branch or one of its commits; or a vendor reports AI-written lines in one of its commits), medium (an AI co-author, Made-with or Claude-Session trailer; the label ai-assisted or one the owner configured; an agent branch prefix; an AI agent author), low (only its author''s AI activity on a day of one of its commits), none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ai_attribution_evidence" IS 'Why the PR has its level, in words: each signal of the level with its source, e.g. ''trailer Co-authored-by: Claude <noreply@anthropic.com> (commit 1a2b3c4)''; empty for none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ready_at" IS 'When the PR was opened, or, opened as a draft, when it was first marked ready for review. Empty while a draft.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."first_review_at" IS 'The earliest review submitted (approved, changes requested or commented) by someone other than the author and not a bot; for a merged PR only one before the merge. Empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."first_commit_at" IS 'Author time of the merged PR''s earliest linked commit; empty when no commit is known.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deployed_at" IS 'Time (createdAt) of the first successful production deployment of the project created at or after the merge; empty when undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."has_coding_time" IS 'Merged, with a known first commit; the rows coding_time_count counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_reviewed" IS 'Merged after a review by someone other than the author and not a bot; the rows pickup_time_count and review_time_count count.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."merged_without_review" IS 'Merged with no review by someone other than the author (and not a bot) before the merge; the rows merged_without_review_prs counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_deployed" IS 'Merged and followed by a successful production deployment of the same project; the rows deploy_time_count counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."coding_time_seconds" IS 'Ready for review − first commit''s author time, in seconds (0 when the commit is dated after it); the value coding_time_p50_seconds takes the median of.
coding_time_p50_seconds: Median of ready for review − first commit over the PRs merged in the period that have a known commit (METRICS.md PR phases).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."pickup_time_seconds" IS 'First review − ready for review, in seconds (0 for a review of the draft before it was ready); the value pickup_time_p50_seconds takes the median of.
pickup_time_p50_seconds: Median of first review − ready for review over the PRs merged in the period after a review by someone other than the author (not a bot).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."review_time_seconds" IS 'Merge − first review, in seconds; the value review_time_p50_seconds takes the median of.
review_time_p50_seconds: Median of merge − first review over the PRs merged in the period after a review by someone other than the author (not a bot).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deploy_time_seconds" IS 'First successful production deployment at or after the merge − merge, in seconds; the value deploy_time_p50_seconds takes the median of.
deploy_time_p50_seconds: Median of first successful production deployment at or after the merge − merge over the PRs merged in the period that were deployed. Month = merge month (lead time for changes is by deployment month).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."pr_size" IS 'Additions + deletions of a merged PR; the value pr_size_p50 takes the median of.
pr_size_p50: Median of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."deployment_external_id" IS 'externalId of the deployment whose createdAt is deployed_at; empty when undeployed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."is_reverted" IS 'A later merged PR of the same project reverts it within 30 days of its merge (its title is Revert "<title>", or a commit of it says This reverts commit <sha> of this PR''s merge commit or one of its commits); the rows reverted_prs counts.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."reverted_because" IS 'Why the PR counts as reverted: the first reverting PR, its merge day and the rule (title, or which commit reverts which); empty when not reverted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ccv_total_value" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ceu_total_value" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_ai_assisted_prs_merged" IS 'ai_assisted_prs_merged: Merged PRs of the period that are AI-assisted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_coding_time_count" IS 'coding_time_count: PRs merged in the period with a known first commit; the n of coding_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_pickup_time_count" IS 'pickup_time_count: PRs merged in the period after a review by someone other than the author; the n of pickup_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_review_time_count" IS 'review_time_count: PRs merged in the period after a review by someone other than the author; the n of review_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_deploy_time_count" IS 'deploy_time_count: PRs merged in the period followed by a successful production deployment of the same project; the n of deploy_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_merged_without_review_prs" IS 'merged_without_review_prs: PRs merged in the period with no review by someone other than the author (and not a bot) before the merge.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_reverted_prs" IS 'reverted_prs: PRs merged in the period that a later merged PR of the same project reverted within 30 days of their merge (METRICS.md Rework). Month = the reverted PR''s merge month.';
--> statement-breakpoint
CREATE VIEW "bi"."seats" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.person_id AS "person_id",
  s.tool AS "tool",
  s.seat_id AS "seat_id",
  s.last_activity_at AS "last_activity_at",
  s.is_idle AS "is_idle",
  ((s.month::timestamp AT TIME ZONE 'UTC')) AS "month",
  s.person_id AS "ai_seat_holders_value",
  s.seat_id AS "seats_held_value",
  COALESCE((s.is_idle), false) AS "in_idle_seats",
  s.seat_id AS "idle_seats_value"
FROM "public"."cube_seat_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."seats" IS 'AI-tool seats by month held (a seat counts in every month it is held on at least one day, from assigned_on to revoked_on or today), counted for every enabled team of the holder.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."row_key" IS 'Seat × month × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."team_id" IS 'Team of the seat holder (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."person_id" IS 'The seat holder (UUID); ai_seat_holders counts these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."tool" IS 'AI tool of the seat, as imported.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."seat_id" IS 'The seat (UUID); seats_held and idle_seats count these.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."last_activity_at" IS 'The vendor''s last activity of the seat (Copilot''s seat list); empty when no vendor said.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."is_idle" IS 'No activity of the seat in the month held, neither the vendor''s last activity nor any AI activity of its holder that ai_active_users counts (docs/ai-measures.md).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."month" IS 'Month the seat was held on at least one day; group ai_seat_holders by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."ai_seat_holders_value" IS 'ai_seat_holders: People holding an AI-tool seat at any time in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."seats_held_value" IS 'seats_held: Seats held at any time in the period (a person with two tools holds two); the seat holders'' list gives it per person.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."in_idle_seats" IS 'idle_seats: Seats held in the period with no activity in a month of it (neither the vendor''s last activity of the seat nor any AI activity of its holder); over a window of several months, a seat idle in any one of them.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."seats"."idle_seats_value" IS 'idle_seats: Seats held in the period with no activity in a month of it (neither the vendor''s last activity of the seat nor any AI activity of its holder); over a window of several months, a seat idle in any one of them.';
--> statement-breakpoint
CREATE VIEW "bi"."session_assessments" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.model AS "model",
  s.started_at AS "started_at",
  s.session_id AS "assessed_sessions_value",
  s.score AS "assessment_score_mean_value",
  s.session_id AS "session_id",
  s.task_completed AS "task_completed"
FROM "public"."cube_session_assessments" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."session_assessments" IS 'The quality rubric (docs/ai.md) scored by a model for each AI session with a transcript. One row per assessed session and enabled team of the session''s person, as in ai_sessions (a person on two teams counts in both). Month = month the session started.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."row_key" IS 'Session × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."team_id" IS 'Team of the session''s person (a person on two enabled teams counts in both; UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."model" IS 'The model that scored the session.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."started_at" IS 'Start of the assessed session; group the assessment measures by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."assessed_sessions_value" IS 'assessed_sessions: AI sessions started in the period that have a quality assessment; the n of assessment_score_mean.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."assessment_score_mean_value" IS 'assessment_score_mean: Mean rubric score of the assessed sessions started in the period (task completed 40, tests run 20, no rework needed 20, no risky action 20); empty when none. Exact per team; across teams a session of a person on two teams counts once per team.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."session_id" IS 'tasks_completed_share: Share of the assessed sessions started in the period whose task the model judged completed (0–1); empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."session_assessments"."task_completed" IS 'tasks_completed_share: Share of the assessed sessions started in the period whose task the model judged completed (0–1); empty when none.';
--> statement-breakpoint
CREATE VIEW "bi"."survey_responses" WITH (security_barrier = true) AS
SELECT
  (s.team_id::text || ':' || s.month::text) AS "row_key",
  s.team_id AS "team_id",
  ((s.month::timestamp AT TIME ZONE 'UTC')) AS "month",
  s.invitations AS "invitations_value",
  s.responses AS "responses_value",
  s.responses AS "responses",
  s.invitations AS "invitations",
  s.answer_sum AS "answer_sum",
  s.answer_count AS "answer_count"
FROM "public"."survey_team_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."survey_responses" IS 'Perception surveys per team and month (a survey counts in every month its answer window overlaps). Responses are anonymous; only the team is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."row_key" IS 'Team × month key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."team_id" IS 'Team surveyed (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."month" IS 'Month a survey''s answer window overlaps; group the survey measures by this time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."invitations_value" IS 'invitations: Invitations of the team''s surveys open in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."responses_value" IS 'responses: Responses to the team''s surveys open in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."responses" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.
team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."invitations" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."answer_sum" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_responses"."answer_count" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
CREATE VIEW "bi"."survey_results" WITH (security_barrier = true) AS
SELECT
  (s.survey_id::text || ':' || s.team_id::text) AS "row_key",
  s.survey_id AS "survey_id",
  s.team_id AS "team_id",
  s.invitations AS "survey_invitations_value",
  s.responses AS "survey_responses_value",
  s.responses AS "responses",
  s.invitations AS "invitations",
  s.answer_sum AS "answer_sum",
  s.answer_count AS "answer_count"
FROM "public"."survey_team_results" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."survey_results" IS 'Each survey''s invitations, responses and scores per invited team (whole survey, not by month). Responses are anonymous; only the team is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."row_key" IS 'Survey × team key';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_id" IS 'Survey (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."team_id" IS 'Team invited to the survey (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_invitations_value" IS 'survey_invitations: People of the team invited to the survey.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."survey_responses_value" IS 'survey_responses: Responses of the team to the survey; the n of survey_results.survey_experience_score.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."responses" IS 'survey_answer_rate: Responses ÷ invitations (0–1); empty when no invitation.
survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."invitations" IS 'survey_answer_rate: Responses ÷ invitations (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."answer_sum" IS 'survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."survey_results"."answer_count" IS 'survey_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
CREATE VIEW "bi"."team_months" WITH (security_barrier = true) AS
SELECT
  s.row_key AS "row_key",
  s.team_id AS "team_id",
  s.month AS "month"
FROM "public"."cube_team_months" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."team_months" IS 'One row per enabled team and calendar month (UTC) from 2000-01 to the current month; the root of the team_monthly view, joined to each fact cube by team and the month of its time dimension.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."row_key" IS 'Team × month key.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_months"."month" IS 'First instant of the calendar month (UTC); group by it with granularity month.';
--> statement-breakpoint
CREATE VIEW "bi"."teams" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.slug AS "slug",
  s.name AS "name",
  s.external_ref AS "external_ref",
  s.cost_centre_code AS "cost_centre_code",
  s.supplier_name AS "supplier_name",
  s.delivery_model AS "delivery_model",
  s.location_country AS "location_country",
  s.enabled AS "enabled"
FROM "public"."teams" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms));
--> statement-breakpoint
COMMENT ON VIEW "bi"."teams" IS 'Delivery teams of the register. Facts of a project count for its owning team; facts of a person (AI sessions, seats, surveys) count for every enabled team the person belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."slug" IS 'Stable short name of the team from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."name" IS 'Display name of the team.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."external_ref" IS 'The team''s id in the register''s source system.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."cost_centre_code" IS 'Cost centre of the team (a join key for finance, not a cost).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."supplier_name" IS 'Supplier delivering the team, when it is outsourced.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."delivery_model" IS 'Delivery model from the register (free text, for example in-house or outsourced).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."location_country" IS 'Country of the team from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."teams"."enabled" IS 'Disabled teams are left out of the team-baseline export and of person attribution.';
--> statement-breakpoint
CREATE VIEW "bi"."team_month" WITH (security_barrier = true) AS
WITH
f0 AS (
SELECT
      "author_activity".team_id "author_activity__team_id", date_trunc('month', ("author_activity".happened_at::timestamptz AT TIME ZONE 'UTC')) "author_activity__happened_at_month", count(distinct "author_activity".author_key) "author_activity__active_authors"
    FROM
      (SELECT * FROM cube_author_activity WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "author_activity"  GROUP BY 1, 2
),
f1 AS (
SELECT
      "projects".owning_team_id "projects__owning_team_id", date_trunc('month', ("issues".closed_at::timestamptz AT TIME ZONE 'UTC')) "issues__closed_at_month", count(CASE WHEN ("issues".is_closed) THEN "issues".id END) "issues__issues_closed", percentile_cont(0.5) WITHIN GROUP (ORDER BY "issues".lead_time_seconds) "issues__issue_lead_time_p50_seconds"
    FROM
      (SELECT * FROM cube_issues WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "issues"
LEFT JOIN (SELECT * FROM projects WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "projects" ON "issues".project_id = "projects".id  GROUP BY 1, 2
),
f2 AS (
SELECT
      "pull_requests".team_id "pull_requests__team_id", date_trunc('month', ("pull_requests".merged_at::timestamptz AT TIME ZONE 'UTC')) "pull_requests__merged_at_month", count(CASE WHEN ("pull_requests".is_merged) THEN "pull_requests".id END) "pull_requests__prs_merged", percentile_cont(0.5) WITHIN GROUP (ORDER BY "pull_requests".cycle_time_seconds) "pull_requests__pr_cycle_time_p50_seconds", sum(CASE WHEN "pull_requests".is_merged THEN "pull_requests".change_effort_units END) "pull_requests__ceu_total", sum(CASE WHEN "pull_requests".is_merged THEN "pull_requests".change_volume END) "pull_requests__ccv_total", count(CASE WHEN ("pull_requests".is_merged AND "pull_requests".ai_assisted) THEN "pull_requests".id END)::numeric / NULLIF(count(CASE WHEN ("pull_requests".is_merged) THEN "pull_requests".id END), 0) "pull_requests__ai_assisted_pr_share"
    FROM
      (SELECT * FROM cube_pull_requests WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "pull_requests"  GROUP BY 1, 2
),
f3 AS (
SELECT
      "deployments".team_id "deployments__team_id", date_trunc('month', ("deployments".created_at::timestamptz AT TIME ZONE 'UTC')) "deployments__created_at_month", count(CASE WHEN ("deployments".any_source_successful_production AND NOT "deployments".is_replaced) THEN "deployments".id END) "deployments__production_deploys", count(CASE WHEN ("deployments".any_source_failed AND NOT "deployments".is_replaced) THEN "deployments".id END)::numeric / NULLIF(count(CASE WHEN ("deployments".any_source_finished_production AND NOT "deployments".is_replaced) THEN "deployments".id END), 0) "deployments__change_failure_rate"
    FROM
      (SELECT * FROM cube_deployments WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "deployments"  GROUP BY 1, 2
),
f4 AS (
SELECT
      "incidents".team_id "incidents__team_id", date_trunc('month', ("incidents".closed_at::timestamptz AT TIME ZONE 'UTC')) "incidents__closed_at_month", percentile_cont(0.5) WITHIN GROUP (ORDER BY "incidents".restore_seconds) "incidents__mttr_p50_seconds"
    FROM
      (SELECT * FROM cube_incidents WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "incidents"  GROUP BY 1, 2
),
f5 AS (
SELECT
      "seats".team_id "seats__team_id", date_trunc('month', (("seats".month::timestamp AT TIME ZONE 'UTC')::timestamptz AT TIME ZONE 'UTC')) "seats__month_month", count(distinct "seats".person_id) "seats__ai_seat_holders"
    FROM
      (SELECT * FROM cube_seat_months WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "seats"  GROUP BY 1, 2
),
f6 AS (
SELECT
      "ai_sessions".team_id "ai_sessions__team_id", date_trunc('month', ("ai_sessions".started_at::timestamptz AT TIME ZONE 'UTC')) "ai_sessions__started_at_month", count(distinct "ai_sessions".user_key) "ai_sessions__ai_active_users", count(distinct "ai_sessions".id) "ai_sessions__ai_sessions"
    FROM
      (SELECT * FROM cube_ai_sessions WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "ai_sessions"  GROUP BY 1, 2
),
f7 AS (
SELECT
      "ai_commits".team_id "ai_commits__team_id", date_trunc('month', ("ai_commits".committed_at::timestamptz AT TIME ZONE 'UTC')) "ai_commits__committed_at_month", count(distinct "ai_commits".id) "ai_commits__ai_commits"
    FROM
      (SELECT * FROM cube_ai_commits WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "ai_commits"  GROUP BY 1, 2
),
f8 AS (
SELECT
      "survey_responses".team_id "survey_responses__team_id", date_trunc('month', (("survey_responses".month::timestamp AT TIME ZONE 'UTC')::timestamptz AT TIME ZONE 'UTC')) "survey_responses__month_month", SUM("survey_responses".responses)::numeric / NULLIF(SUM("survey_responses".invitations), 0) "survey_responses__survey_response_rate", CASE WHEN SUM("survey_responses".responses) >= 3 THEN (SUM("survey_responses".answer_sum)::numeric / NULLIF(SUM("survey_responses".answer_count), 0) - 1) * 25 END "survey_responses__team_experience_score"
    FROM
      (SELECT * FROM survey_team_months WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "survey_responses"  GROUP BY 1, 2
),
hc AS (
SELECT
      "memberships".team_id "memberships__team_id", count(CASE WHEN ("memberships".membership_source = 'register') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__register_headcount", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'employee') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__internal_headcount", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'supplier') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__external_headcount"
    FROM
      (SELECT * FROM team_memberships WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "memberships"
LEFT JOIN (SELECT * FROM people WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "people" ON "memberships".person_id = "people".id  GROUP BY 1
),
sup_rows AS (
SELECT
      "memberships".team_id "memberships__team_id", "people".supplier_name "people__supplier_name", count(CASE WHEN ("memberships".membership_source = 'register' AND "people".employment_type = 'supplier') THEN "memberships".team_id::text || ':' || "memberships".person_id::text END) "memberships__external_headcount"
    FROM
      (SELECT * FROM team_memberships WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "memberships"
LEFT JOIN (SELECT * FROM people WHERE tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))) AS "people" ON "memberships".person_id = "people".id  WHERE ("memberships".membership_source = 'register') AND ("people".employment_type = 'supplier') GROUP BY 1, 2
),
sup AS (SELECT team, jsonb_object_agg(name, n) AS by_supplier FROM (SELECT "memberships__team_id" AS team, COALESCE("people__supplier_name", 'unknown') AS name, sum("memberships__external_headcount")::bigint AS n FROM sup_rows WHERE "memberships__external_headcount" <> 0 GROUP BY 1, 2) s GROUP BY team),
teams AS (SELECT t.id, t.slug, t.name, t.external_ref, t.cost_centre_code, t.org_unit_id, o.slug AS org_unit_slug, t.supplier_name, t.delivery_model, t.location_country FROM "public"."teams" t LEFT JOIN "public"."org_units" o ON o.id = t.org_unit_id AND o.tenant_id = t.tenant_id WHERE t.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms)) AND t.enabled),
months AS (SELECT generate_series(min(m), max(m), interval '1 month') AS m FROM (
SELECT "author_activity__happened_at_month" AS m FROM f0
UNION ALL
SELECT "issues__closed_at_month" AS m FROM f1
UNION ALL
SELECT "pull_requests__merged_at_month" AS m FROM f2
UNION ALL
SELECT "deployments__created_at_month" AS m FROM f3
UNION ALL
SELECT "incidents__closed_at_month" AS m FROM f4
UNION ALL
SELECT "seats__month_month" AS m FROM f5
UNION ALL
SELECT "ai_sessions__started_at_month" AS m FROM f6
UNION ALL
SELECT "ai_commits__committed_at_month" AS m FROM f7
UNION ALL
SELECT "survey_responses__month_month" AS m FROM f8
UNION ALL
SELECT date_trunc('month', now() AT TIME ZONE 'UTC')
) b WHERE m IS NOT NULL),
rows AS (SELECT
  t.id AS "team_id",
  to_char(mo.m, 'YYYY-MM') AS "month",
  t.slug AS "team_slug",
  t.name AS "team_name",
  t.external_ref AS "team_external_ref",
  t.cost_centre_code AS "cost_centre_code",
  t.org_unit_id AS "org_unit_id",
  t.org_unit_slug AS "org_unit_slug",
  t.supplier_name AS "supplier_name",
  t.delivery_model AS "delivery_model",
  t.location_country AS "location_country",
  COALESCE(hc."memberships__register_headcount", 0)::bigint AS "headcount",
  COALESCE(hc."memberships__internal_headcount", 0)::bigint AS "internal_headcount",
  COALESCE(hc."memberships__external_headcount", 0)::bigint AS "external_headcount",
  COALESCE(sup.by_supplier, '{}'::jsonb) AS "headcount_by_supplier",
  COALESCE((floor((f0."author_activity__active_authors")::float8) + CASE WHEN ((f0."author_activity__active_authors")::float8) - floor((f0."author_activity__active_authors")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "active_authors",
  COALESCE((floor((f1."issues__issues_closed")::float8) + CASE WHEN ((f1."issues__issues_closed")::float8) - floor((f1."issues__issues_closed")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "issues_closed",
  COALESCE((floor((f2."pull_requests__prs_merged")::float8) + CASE WHEN ((f2."pull_requests__prs_merged")::float8) - floor((f2."pull_requests__prs_merged")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "prs_merged",
  (floor((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) + CASE WHEN ((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) - floor((f2."pull_requests__pr_cycle_time_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "pr_cycle_time_p50_seconds",
  (floor((f1."issues__issue_lead_time_p50_seconds")::float8) + CASE WHEN ((f1."issues__issue_lead_time_p50_seconds")::float8) - floor((f1."issues__issue_lead_time_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "issue_lead_time_p50_seconds",
  COALESCE((floor((f3."deployments__production_deploys")::float8) + CASE WHEN ((f3."deployments__production_deploys")::float8) - floor((f3."deployments__production_deploys")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "production_deploys",
  ((floor((f3."deployments__change_failure_rate")::float8 * 10000) + CASE WHEN ((f3."deployments__change_failure_rate")::float8 * 10000) - floor((f3."deployments__change_failure_rate")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "change_failure_rate",
  (floor((f4."incidents__mttr_p50_seconds")::float8) + CASE WHEN ((f4."incidents__mttr_p50_seconds")::float8) - floor((f4."incidents__mttr_p50_seconds")::float8) >= 0.5 THEN 1 ELSE 0 END)::bigint AS "mttr_p50_seconds",
  COALESCE((floor((f2."pull_requests__ceu_total")::float8) + CASE WHEN ((f2."pull_requests__ceu_total")::float8) - floor((f2."pull_requests__ceu_total")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ceu_total",
  COALESCE((floor((f2."pull_requests__ccv_total")::float8) + CASE WHEN ((f2."pull_requests__ccv_total")::float8) - floor((f2."pull_requests__ccv_total")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ccv_total",
  ((floor((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) + CASE WHEN ((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) - floor((f2."pull_requests__ai_assisted_pr_share")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "ai_assisted_pr_share",
  COALESCE((floor((f5."seats__ai_seat_holders")::float8) + CASE WHEN ((f5."seats__ai_seat_holders")::float8) - floor((f5."seats__ai_seat_holders")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_seat_holders",
  COALESCE((floor((f6."ai_sessions__ai_active_users")::float8) + CASE WHEN ((f6."ai_sessions__ai_active_users")::float8) - floor((f6."ai_sessions__ai_active_users")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_active_users",
  COALESCE((floor((f6."ai_sessions__ai_sessions")::float8) + CASE WHEN ((f6."ai_sessions__ai_sessions")::float8) - floor((f6."ai_sessions__ai_sessions")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_sessions",
  COALESCE((floor((f7."ai_commits__ai_commits")::float8) + CASE WHEN ((f7."ai_commits__ai_commits")::float8) - floor((f7."ai_commits__ai_commits")::float8) >= 0.5 THEN 1 ELSE 0 END), 0)::bigint AS "ai_commits",
  ((floor((f8."survey_responses__survey_response_rate")::float8 * 10000) + CASE WHEN ((f8."survey_responses__survey_response_rate")::float8 * 10000) - floor((f8."survey_responses__survey_response_rate")::float8 * 10000) >= 0.5 THEN 1 ELSE 0 END) / 10000) AS "survey_response_rate",
  ((floor((f8."survey_responses__team_experience_score")::float8 * 100) + CASE WHEN ((f8."survey_responses__team_experience_score")::float8 * 100) - floor((f8."survey_responses__team_experience_score")::float8 * 100) >= 0.5 THEN 1 ELSE 0 END) / 100) AS "team_experience_score",
  mo.m::date AS "month_start"
FROM teams t CROSS JOIN months mo
LEFT JOIN hc ON hc."memberships__team_id" = t.id
LEFT JOIN sup ON sup.team = t.id
LEFT JOIN f0 ON f0."author_activity__team_id" = t.id AND f0."author_activity__happened_at_month" = mo.m
LEFT JOIN f1 ON f1."projects__owning_team_id" = t.id AND f1."issues__closed_at_month" = mo.m
LEFT JOIN f2 ON f2."pull_requests__team_id" = t.id AND f2."pull_requests__merged_at_month" = mo.m
LEFT JOIN f3 ON f3."deployments__team_id" = t.id AND f3."deployments__created_at_month" = mo.m
LEFT JOIN f4 ON f4."incidents__team_id" = t.id AND f4."incidents__closed_at_month" = mo.m
LEFT JOIN f5 ON f5."seats__team_id" = t.id AND f5."seats__month_month" = mo.m
LEFT JOIN f6 ON f6."ai_sessions__team_id" = t.id AND f6."ai_sessions__started_at_month" = mo.m
LEFT JOIN f7 ON f7."ai_commits__team_id" = t.id AND f7."ai_commits__committed_at_month" = mo.m
LEFT JOIN f8 ON f8."survey_responses__team_id" = t.id AND f8."survey_responses__month_month" = mo.m)
SELECT
  r."team_id",
  r."month",
  r."team_slug",
  r."team_name",
  r."team_external_ref",
  r."cost_centre_code",
  r."org_unit_id",
  r."org_unit_slug",
  r."supplier_name",
  r."delivery_model",
  r."location_country",
  r."headcount",
  r."internal_headcount",
  r."external_headcount",
  r."headcount_by_supplier",
  r."active_authors",
  r."issues_closed",
  r."prs_merged",
  r."pr_cycle_time_p50_seconds",
  r."issue_lead_time_p50_seconds",
  r."production_deploys",
  r."change_failure_rate",
  r."mttr_p50_seconds",
  r."ceu_total",
  r."ccv_total",
  r."ai_assisted_pr_share",
  r."ai_seat_holders",
  r."ai_active_users",
  r."ai_sessions",
  r."ai_commits",
  r."survey_response_rate",
  r."team_experience_score",
  (SELECT CASE WHEN c.n > 0 THEN (floor((c.s / c.n) * 100) + CASE WHEN ((c.s / c.n) * 100) - floor((c.s / c.n) * 100) >= 0.5 THEN 1 ELSE 0 END) / 100 END FROM (SELECT (COALESCE(a.adoption, 0) + COALESCE(a.delivery, 0)) + COALESCE(a.perception, 0) AS s, ((a.adoption IS NOT NULL)::int + (a.delivery IS NOT NULL)::int + (a.perception IS NOT NULL)::int)::float8 AS n) c) AS "aiva_light_overall",
  NULLIF(concat_ws('+', CASE WHEN a.adoption IS NOT NULL THEN 'adoption' END, CASE WHEN a.delivery IS NOT NULL THEN 'delivery' END, CASE WHEN a.perception IS NOT NULL THEN 'perception' END), '') AS "aiva_scope",
  r."month_start"
FROM rows r
CROSS JOIN LATERAL (SELECT CASE WHEN r.headcount > 0 THEN LEAST((r.ai_active_users::float8 / r.headcount::float8) * 100, 100) END AS adoption, r.ai_assisted_pr_share * 100 AS delivery, r.team_experience_score AS perception) a
ORDER BY r.team_slug COLLATE "C", r.month;
--> statement-breakpoint
COMMENT ON VIEW "bi"."team_month" IS 'One row per enabled team and month with the 34 team-baseline columns, equal to the team-baseline export (METRICS.md). Months run from the first month with any fact of the tenant to the current month (UTC); filter on month (YYYY-MM) or month_start.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_id" IS 'Team (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."month" IS 'Calendar month, YYYY-MM (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_slug" IS 'Team slug (the rows are ordered by it, then by month).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_name" IS 'Team name.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_external_ref" IS 'Team reference in the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."cost_centre_code" IS 'Cost centre code from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."org_unit_id" IS 'Organisation unit (UUID).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."org_unit_slug" IS 'Organisation unit slug.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."supplier_name" IS 'Supplier delivering the team, from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."delivery_model" IS 'Delivery model from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."location_country" IS 'Country from the register.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."headcount" IS 'register_headcount: Members the last register import left in the team (no history is kept); the team-baseline export''s headcount. Memberships added by hand are not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."internal_headcount" IS 'internal_headcount: Register members with employment type employee; the export''s internal_headcount. Contractors and unknown count only in register_headcount.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."external_headcount" IS 'external_headcount: Register members with employment type supplier; the export''s external_headcount (by supplier with people.supplier_name).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."headcount_by_supplier" IS 'Supplier members by supplier name (unknown when the register names none), a JSON object; no history is kept.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."active_authors" IS 'active_authors: Distinct authors of PRs merged or commits made in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."issues_closed" IS 'issues_closed: Issues closed (state closed) with closedAt in the period. Also the n of issue_lead_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."pr_cycle_time_p50_seconds" IS 'pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."issue_lead_time_p50_seconds" IS 'issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."production_deploys" IS 'production_deploys: Successful production deployments created in the period (of each project''s source for that period; rows replaced by another source are not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."change_failure_rate" IS 'change_failure_rate: DORA change failure rate, failed ÷ finished production deployments created in the period (0–1); empty when there is no finished production deployment (always so for a team without a deployment source).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."mttr_p50_seconds" IS 'mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ceu_total" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ccv_total" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_assisted_pr_share" IS 'ai_assisted_pr_share: AI-assisted PRs merged ÷ PRs merged in the period (0–1); empty when none merged.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_seat_holders" IS 'ai_seat_holders: People holding an AI-tool seat at any time in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_active_users" IS 'ai_active_users: People (or, unmatched, uploading users or reported e-mails and logins) with at least one AI session started, or a telemetry or vendor-report day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_sessions" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_commits" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member or reported by a vendor as containing AI-written lines.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."survey_response_rate" IS 'survey_response_rate: Responses ÷ invitations of the team''s surveys open in the period (0–1); empty when no invitation.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."team_experience_score" IS 'team_experience_score: Mean answer of the responses on a 0–100 scale (answers 1–5 → 0–100); empty when no response, and below 3 responses so that a small team stays anonymous.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."aiva_light_overall" IS 'AI value assessment (light), 0-100: the mean of the components with data in the month (adoption, delivery, perception).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."aiva_scope" IS 'The components of aiva_light_overall, joined by + in that order (adoption+delivery+perception, adoption+delivery, ...).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."month_start" IS 'The month as a date (its first day), for BI tools that group by time. Not an export column.';
