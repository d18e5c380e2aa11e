-- Issue 45 point 4: graded AI attribution per PR and commit (METRICS.md "AI attribution", docs/ai-attribution.md).
-- Every level is computed when read, from views, so it is never stale whichever fact arrives last
-- and a write pays nothing for it. The views are layered so that the vendor reports
-- (ai_vendor_commits, ai_vendor_days) plug in as one more UNION ALL branch each.
ALTER TABLE "commits" ADD COLUMN "ai_trailers" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
CREATE TABLE "ai_attribution_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_attribution_settings" ADD CONSTRAINT "ai_attribution_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ai_attribution_settings" ADD CONSTRAINT "ai_attribution_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
SELECT app_tenant_floor('ai_attribution_settings');
--> statement-breakpoint
-- The labels decide which PRs are AI-assisted: a change re-attributes the whole tenant (rollups, cube *).
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_attribution_settings REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_attribution_settings REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_attribution_settings REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_attribution_settings FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
-- The vendor reports' rows (issue 45 point 2), empty until their tables exist: plugging them in is
-- a CREATE OR REPLACE of these two views (docs/ai-attribution.md "Vendor data"). A view of no
-- rows, rather than nothing, so the views below already read them, and the planner folds them away.
CREATE VIEW "ai_vendor_activity_days" AS
SELECT NULL::uuid AS tenant_id, NULL::text AS person_key, NULL::date AS day, 'vendor'::text AS source, NULL::text AS tool, NULL::uuid AS session_id
WHERE false;
--> statement-breakpoint
CREATE VIEW "ai_vendor_commit_evidence" AS
SELECT NULL::uuid AS tenant_id, NULL::uuid AS commit_id, 'vendor_commit'::text AS signal, NULL::text AS source, NULL::uuid AS session_id, NULL::text AS evidence
WHERE false;
--> statement-breakpoint
-- A person's AI activity by day, one row per source row: `person_key` is a lower-cased e-mail, or
-- `login:<code-host login>` for a source that names only a login. Read by (tenant, person_key,
-- day), which each branch answers from an index: an upload's day through its user's e-mail
-- (users_email_key, ai_sessions_tenant_user_idx), a telemetry day through its unique key.
-- Telemetry sessions need no branch of their own: every event of one also counts in its person-day.
CREATE VIEW "ai_activity_days" AS
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
-- What says a commit was written with AI (the high level): a session that names it (uploaded or
-- captured; or built from telemetry, whose commits come from a tool_result's `git commit`), or a
-- vendor's per-commit data. `signal` is session, telemetry_commit or vendor_commit; `evidence` the
-- words a drill-through shows.
CREATE VIEW "ai_commit_evidence" AS
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
-- A PR's attribution: one row per PR; each signal on its own, the level, and the evidence of the
-- level reached (each signal's first item, in a fixed order). The inner columns are scalar
-- subqueries, so a query naming only `ai_assisted` (the AI share, the rollups, bi.team_month)
-- plans and evaluates a handful of index probes: any session link of the PR (a session naming the
-- PR, its branch, or, as `commit_pr` links, one of its commits), vendor commit data, an AI trailer,
-- the labels, the branch, the author. Evidence and the author's activity (low) are looked at only
-- when asked for, low only when nothing above it holds.
CREATE VIEW "pull_request_attribution" AS
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
-- A commit's attribution, by the same rules: high (ai_commit_evidence), medium (an AI trailer), low
-- (its author's AI activity that day).
CREATE VIEW "commit_attribution" AS
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
-- The old view keeps its columns for whoever reads it: the session reason now takes every high signal.
CREATE OR REPLACE VIEW "pull_request_ai_assisted" AS
SELECT a.pull_request_id, a.tenant_id,
       (a.ai_via_session OR a.ai_via_telemetry_commit OR a.ai_via_vendor_commit) AS via_session,
       a.ai_via_trailer AS via_trailer, a.ai_via_label AS via_label, a.ai_assisted
FROM "pull_request_attribution" a;
--> statement-breakpoint
-- The cube views gain the level and its evidence (appended: CREATE OR REPLACE keeps the columns)
-- through a left join on the attribution view, which PostgreSQL flattens into a join of the PR on
-- its own primary key and removes when a query names none of its columns. (One scalar subquery
-- per column would expand the whole view once per column: 13 copies to plan for every query of
-- the cube, measured at 4x the planning time of bi.team_month.) ai_assisted keeps its name and
-- meaning: level high or medium.
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
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence,
       a.ai_via_telemetry_commit AS ai_via_telemetry_commit,
       a.ai_via_vendor_commit AS ai_via_vendor_commit,
       a.ai_via_branch AS ai_via_branch,
       a.ai_via_bot AS ai_via_bot
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "pull_request_attribution" a ON a.pull_request_id = pr.id;
--> statement-breakpoint
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
CREATE OR REPLACE VIEW "cube_commits" AS
SELECT c.tenant_id, c.id, c.project_id, p.owning_team_id AS team_id, c.sha, c.branch, c.author_username, c.author_email,
       c.committed_at, cardinality(c.ai_coauthors) > 0 AS has_ai_coauthor,
       a.ai_attribution AS ai_attribution,
       a.ai_attribution_evidence AS ai_attribution_evidence
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "commit_attribution" a ON a.commit_id = c.id;
--> statement-breakpoint
-- The bi views of the three models that gained members (`npx tsx tools/bi/generate.ts`): ai_attribution and its evidence, the signals of pull_requests; and bi.team_month, whose `SELECT *` over cube_pull_requests was expanded to its columns of the day.
DROP VIEW IF EXISTS "bi"."team_month";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."change_lead_times";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."pull_requests";
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
lead_time_for_changes_p50_seconds: DORA lead time for changes. Median seconds from a merged PR''s first commit (its createdAt when no commit is known) to the first successful production deployment of the same project created at or after the merge, over the deployments created in the period; empty when none.';
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
  COALESCE((s.is_merged), false) AS "in_prs_merged",
  (CASE WHEN s.is_merged THEN s.change_volume END) AS "ccv_total_value",
  (CASE WHEN s.is_merged THEN s.change_effort_units END) AS "ceu_total_value",
  COALESCE((s.is_merged AND s.ai_assisted), false) AS "in_ai_assisted_prs_merged"
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
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.';
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
COMMENT ON COLUMN "bi"."pull_requests"."in_prs_merged" IS 'prs_merged: Pull requests with mergedAt in the period; also the n of pr_cycle_time_p50_seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ccv_total_value" IS 'ccv_total: Sum of additions + deletions over the PRs merged in the period.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."ceu_total_value" IS 'ceu_total: Sum over PRs merged in the period of a size weight on additions + deletions (≤10 → 1, ≤50 → 2, ≤250 → 3, ≤1000 → 5, above → 8).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."in_ai_assisted_prs_merged" IS 'ai_assisted_prs_merged: Merged PRs of the period that are AI-assisted.';
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
      "deployments".team_id "deployments__team_id", date_trunc('month', ("deployments".created_at::timestamptz AT TIME ZONE 'UTC')) "deployments__created_at_month", count(CASE WHEN ("deployments".is_successful_production) THEN "deployments".id END) "deployments__production_deploys", count(CASE WHEN ("deployments".is_failed) THEN "deployments".id END)::numeric / NULLIF(count(CASE WHEN ("deployments".is_finished_production) THEN "deployments".id END), 0) "deployments__change_failure_rate"
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
COMMENT ON COLUMN "bi"."team_month"."production_deploys" IS 'production_deploys: Successful production deployments created in the period.';
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
COMMENT ON COLUMN "bi"."team_month"."ai_active_users" IS 'ai_active_users: People (or, unmatched, uploading users or telemetry e-mails) with at least one AI session started, or a telemetry day with a session, prompt, request or accepted edit, in the period; a person counts once whatever the sources.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_sessions" IS 'ai_sessions: AI sessions started in the period (by members of the team, when grouped by team).';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."team_month"."ai_commits" IS 'ai_commits: Commits made in the period that are linked to an AI session of a team member.';
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
