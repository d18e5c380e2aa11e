CREATE TABLE "ai_telemetry_days" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"person_key" text NOT NULL,
	"person_email" text,
	"person_account" text,
	"day" date NOT NULL,
	"tool" text NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"prompts" integer DEFAULT 0 NOT NULL,
	"api_requests" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_read_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_write_tokens" bigint DEFAULT 0 NOT NULL,
	"tool_calls" integer DEFAULT 0 NOT NULL,
	"lines_added" bigint DEFAULT 0 NOT NULL,
	"lines_removed" bigint DEFAULT 0 NOT NULL,
	"edits_accepted" integer DEFAULT 0 NOT NULL,
	"edits_rejected" integer DEFAULT 0 NOT NULL,
	"commits" integer DEFAULT 0 NOT NULL,
	"pull_requests" integer DEFAULT 0 NOT NULL,
	"active_seconds" double precision DEFAULT 0 NOT NULL,
	"recent_batches" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_telemetry_intake" (
	"tenant_id" uuid NOT NULL,
	"signal" text NOT NULL,
	"name" text NOT NULL,
	"shard" smallint NOT NULL,
	"accepted" bigint DEFAULT 0 NOT NULL,
	"ignored" bigint DEFAULT 0 NOT NULL,
	"rejected" bigint DEFAULT 0 NOT NULL,
	"last_received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_telemetry_intake_tenant_id_signal_name_shard_pk" PRIMARY KEY("tenant_id","signal","name","shard")
);
--> statement-breakpoint
CREATE TABLE "ai_telemetry_series" (
	"tenant_id" uuid NOT NULL,
	"series_key" uuid NOT NULL,
	"cumulative" boolean NOT NULL,
	"start_ns" bigint NOT NULL,
	"time_ns" bigint NOT NULL,
	"value" double precision NOT NULL,
	"increment" double precision NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_telemetry_series_tenant_id_series_key_pk" PRIMARY KEY("tenant_id","series_key")
);
--> statement-breakpoint
ALTER TABLE "ai_sessions" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "source" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "telemetry_id" text;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "person_email" text;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "person_account" text;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "prompt_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "api_request_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "lines_added" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "lines_removed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "edits_accepted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "edits_rejected" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "commit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "pull_request_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "active_seconds" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD COLUMN "recent_batches" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_telemetry_days" ADD CONSTRAINT "ai_telemetry_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_telemetry_intake" ADD CONSTRAINT "ai_telemetry_intake_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_telemetry_series" ADD CONSTRAINT "ai_telemetry_series_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_telemetry_days_person_day" ON "ai_telemetry_days" USING btree ("tenant_id","person_key","day","tool");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_sessions_tenant_telemetry" ON "ai_sessions" USING btree ("tenant_id","tool","telemetry_id");--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD CONSTRAINT "ai_sessions_source" CHECK ("ai_sessions"."source" in ('upload', 'telemetry'));--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD CONSTRAINT "ai_sessions_upload_user" CHECK ("ai_sessions"."source" <> 'upload' or "ai_sessions"."user_id" is not null);
--> statement-breakpoint
-- Issue 45: AI tools' OpenTelemetry (docs/ai-telemetry.md). Telemetry sessions are ai_sessions rows
-- (source telemetry, no user: a person e-mail); person-days are ai_telemetry_days. Both feed the
-- ai_sessions cube, whose person is still resolved here, at query time, so a later register import
-- attributes an e-mail that matched nobody when it arrived.
SELECT app_tenant_floor('ai_telemetry_days');
--> statement-breakpoint
SELECT app_tenant_floor('ai_telemetry_series');
--> statement-breakpoint
SELECT app_tenant_floor('ai_telemetry_intake');
--> statement-breakpoint
-- Columns appended (CREATE OR REPLACE keeps the existing ones). A person-day row has no session id
-- (ai_sessions counts ids, which skips it) but a user_key (ai_active_users counts those, so a
-- person active through an upload and telemetry on the same day counts once). Unmatched telemetry
-- is keyed by the e-mail's digest, as cube_commits keys unmatched authors.
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
WHERE d.sessions > 0 OR d.api_requests > 0 OR d.prompts > 0 OR d.edits_accepted > 0;
--> statement-breakpoint
-- Telemetry sessions have no user: their commits still count, keyed as cube_ai_sessions keys them.
CREATE OR REPLACE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, l.id AS link_id, l.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       l.session_id, pi.person_id, tm.team_id,
       c.sha,
       (SELECT p.project_key FROM "projects" p WHERE p.id = c.project_id) AS project_key,
       (SELECT string_agg(DISTINCT a.tool, ', ' ORDER BY a.tool)
        FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_tools,
       (SELECT string_agg(al.session_id::text, ', ' ORDER BY al.session_id::text)
        FROM "ai_session_links" al
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_session_ids,
       (SELECT string_agg(DISTINCT k.key::text, ', ' ORDER BY k.key::text)
        FROM "ai_session_links" al
        JOIN "ai_sessions" a ON a.id = al.session_id
        LEFT JOIN "users" au ON au.id = a.user_id
        LEFT JOIN "person_identities" api ON api.tenant_id = a.tenant_id AND api.kind = 'email' AND api.value = lower(COALESCE(au.email, a.person_email))
        CROSS JOIN LATERAL (SELECT COALESCE(api.person_id, a.user_id, md5(COALESCE('email:' || a.person_email, 'account:' || a.person_account))::uuid) AS key) k
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_user_keys
FROM "ai_session_links" l
JOIN "commits" c ON c.id = l.commit_id
JOIN "ai_sessions" s ON s.id = l.session_id
LEFT JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id;
--> statement-breakpoint
-- Rollups (docs/rollups.md): a person-day changes the ai_sessions cube of its month.
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
    -- register tables: who is whom and who is on which team changes every month (cube *)
    ELSE 'SELECT r.tenant_id, ''*'', ''-infinity''::date FROM r' END;
  EXECUTE format('INSERT INTO cube_rollup_changes (tenant_id, cube, month) SELECT DISTINCT * FROM (WITH r AS (%s) %s) a ON CONFLICT DO NOTHING', rows, affected);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_telemetry_days REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_telemetry_days REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_telemetry_days REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_telemetry_days FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
