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
