CREATE TABLE "ai_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"feature" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"outcome" text NOT NULL,
	"status" integer,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"provider" text,
	"models" text[] DEFAULT '{}'::text[] NOT NULL,
	"api_key_sealed" text,
	"monthly_token_budget" bigint,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notebook_cells" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"notebook_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answer" text,
	"error" text,
	"model" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"ran_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notebooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_assessments" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"model" text NOT NULL,
	"task_completed" boolean NOT NULL,
	"tests_run" boolean NOT NULL,
	"rework_needed" boolean NOT NULL,
	"risky_actions" boolean NOT NULL,
	"score" smallint NOT NULL,
	"rationale" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_assessments_score_range" CHECK ("session_assessments"."score" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "session_summaries" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"text" text NOT NULL,
	"model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_calls" ADD CONSTRAINT "ai_calls_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD CONSTRAINT "ai_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD CONSTRAINT "ai_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_cells" ADD CONSTRAINT "notebook_cells_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_cells" ADD CONSTRAINT "notebook_cells_notebook_id_notebooks_id_fk" FOREIGN KEY ("notebook_id") REFERENCES "public"."notebooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebooks" ADD CONSTRAINT "notebooks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebooks" ADD CONSTRAINT "notebooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_assessments" ADD CONSTRAINT "session_assessments_session_id_ai_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ai_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_assessments" ADD CONSTRAINT "session_assessments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_summaries" ADD CONSTRAINT "session_summaries_session_id_ai_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ai_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_summaries" ADD CONSTRAINT "session_summaries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_calls_tenant_created_idx" ON "ai_calls" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "notebook_cells_notebook_idx" ON "notebook_cells" USING btree ("notebook_id","position");--> statement-breakpoint
CREATE INDEX "notebooks_tenant_user_idx" ON "notebooks" USING btree ("tenant_id","user_id");--> statement-breakpoint
-- The assessments as the cube reads them: one row per assessed session and enabled team of its person (cube_ai_sessions' rule).
CREATE VIEW "cube_session_assessments" AS
SELECT c.tenant_id, c.id AS session_id, c.row_key, c.team_id, c.person_id, c.started_at,
       a.model, a.score, a.task_completed, a.tests_run, a.rework_needed, a.risky_actions
FROM "session_assessments" a
JOIN "cube_ai_sessions" c ON c.id = a.session_id AND c.tenant_id = a.tenant_id;
--> statement-breakpoint
SELECT app_tenant_floor('ai_settings');
--> statement-breakpoint
SELECT app_tenant_floor('ai_calls');
--> statement-breakpoint
SELECT app_tenant_floor('session_summaries');
--> statement-breakpoint
SELECT app_tenant_floor('session_assessments');
--> statement-breakpoint
SELECT app_tenant_floor('notebooks');
--> statement-breakpoint
SELECT app_tenant_floor('notebook_cells');
--> statement-breakpoint
-- The bi views of the two new cubes, generated by tools/bi/generate.ts.
CREATE VIEW "bi"."ai_usage" WITH (security_barrier = true) AS
SELECT
  s.id AS "id",
  s.feature AS "feature",
  s.model AS "model",
  s.outcome AS "outcome",
  s.created_at AS "created_at",
  (s.input_tokens + s.output_tokens) AS "ai_tokens_value"
FROM "public"."ai_calls" s
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
WHERE s.tenant_id = (SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user);
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
