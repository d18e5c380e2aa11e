CREATE TABLE "ai_vendor_commits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source" text NOT NULL,
	"sha" text NOT NULL,
	"repo" text,
	"branch" text,
	"person_email" text,
	"committed_at" timestamp with time zone,
	"ai_lines_added" integer DEFAULT 0 NOT NULL,
	"ai_lines_deleted" integer DEFAULT 0 NOT NULL,
	"tab_lines_added" integer DEFAULT 0 NOT NULL,
	"composer_lines_added" integer DEFAULT 0 NOT NULL,
	"non_ai_lines_added" integer DEFAULT 0 NOT NULL,
	"total_lines_added" integer DEFAULT 0 NOT NULL,
	"total_lines_deleted" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_vendor_days" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source" text NOT NULL,
	"day" date NOT NULL,
	"person_key" text NOT NULL,
	"person_email" text,
	"person_login" text,
	"sessions" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"lines_added" bigint DEFAULT 0 NOT NULL,
	"lines_removed" bigint DEFAULT 0 NOT NULL,
	"lines_suggested" bigint DEFAULT 0 NOT NULL,
	"edits_accepted" integer DEFAULT 0 NOT NULL,
	"edits_rejected" integer DEFAULT 0 NOT NULL,
	"commits" integer DEFAULT 0 NOT NULL,
	"pull_requests" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_read_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_write_tokens" bigint DEFAULT 0 NOT NULL,
	"tokens_by_model" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_vendor_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"source" text NOT NULL,
	"key_sealed" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cursor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lease_job" text,
	"lease_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"last_outcome" jsonb,
	"notice" text,
	"saved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_vendor_sources_source" CHECK ("ai_vendor_sources"."source" in ('claude_code_analytics', 'copilot', 'cursor'))
);
--> statement-breakpoint
ALTER TABLE "seats" ADD COLUMN "source" text DEFAULT 'import' NOT NULL;--> statement-breakpoint
ALTER TABLE "seats" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seats" ADD COLUMN "external_login" text;--> statement-breakpoint
ALTER TABLE "ai_vendor_commits" ADD CONSTRAINT "ai_vendor_commits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_vendor_days" ADD CONSTRAINT "ai_vendor_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_vendor_sources" ADD CONSTRAINT "ai_vendor_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_vendor_sources" ADD CONSTRAINT "ai_vendor_sources_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_vendor_commits_source_sha" ON "ai_vendor_commits" USING btree ("tenant_id","source","sha");--> statement-breakpoint
CREATE INDEX "ai_vendor_commits_tenant_sha" ON "ai_vendor_commits" USING btree ("tenant_id","sha");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_vendor_days_person_day" ON "ai_vendor_days" USING btree ("tenant_id","source","day","person_key");--> statement-breakpoint
CREATE INDEX "ai_vendor_days_tenant_day" ON "ai_vendor_days" USING btree ("tenant_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_vendor_sources_tenant_source" ON "ai_vendor_sources" USING btree ("tenant_id","source");--> statement-breakpoint
-- Issue 45 point 2: vendor daily reports (docs/ai-vendor-reports.md). Keys, person-days and
-- per-commit AI lines are tenant data like any other.
SELECT app_tenant_floor('ai_vendor_sources');
--> statement-breakpoint
SELECT app_tenant_floor('ai_vendor_days');
--> statement-breakpoint
SELECT app_tenant_floor('ai_vendor_commits');
--> statement-breakpoint
ALTER TABLE "ai_vendor_days" ADD CONSTRAINT "ai_vendor_days_source" CHECK ("source" in ('claude_code_analytics', 'copilot', 'cursor'));
--> statement-breakpoint
ALTER TABLE "ai_vendor_commits" ADD CONSTRAINT "ai_vendor_commits_source" CHECK ("source" in ('claude_code_analytics', 'copilot', 'cursor'));
--> statement-breakpoint
ALTER TABLE "seats" ADD CONSTRAINT "seats_source" CHECK ("source" in ('import', 'copilot'));
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_vendor_days REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_vendor_days REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_vendor_days REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('day', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_vendor_days FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
CREATE TRIGGER cube_rollup_insert AFTER INSERT ON ai_vendor_commits REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_update AFTER UPDATE ON ai_vendor_commits REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_delete AFTER DELETE ON ai_vendor_commits REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_changed('committed_at', '', '');
--> statement-breakpoint
CREATE TRIGGER cube_rollup_truncate AFTER TRUNCATE ON ai_vendor_commits FOR EACH STATEMENT EXECUTE FUNCTION cube_rollup_truncated();
--> statement-breakpoint
-- The bi views of the two models whose descriptions changed (npx tsx tools/bi/generate.ts).
DROP VIEW IF EXISTS "bi"."ai_commits";
--> statement-breakpoint
DROP VIEW IF EXISTS "bi"."ai_sessions";
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
COMMENT ON COLUMN "bi"."ai_sessions"."source" IS 'Where the row came from, upload (POST /api/sessions), telemetry (the tool''s OpenTelemetry, a session or a person-day), or a vendor''s daily report (claude_code_analytics, copilot, cursor; a person-day).';
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
