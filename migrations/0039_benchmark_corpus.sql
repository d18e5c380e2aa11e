CREATE TABLE "benchmark_corpus" (
	"repository_key" text NOT NULL,
	"month" date NOT NULL,
	"prs_merged" integer NOT NULL,
	"active_authors" integer NOT NULL,
	"pr_cycle_time_p50_seconds" double precision,
	"prs_merged_per_active_author" double precision,
	"releases" integer NOT NULL,
	"revert_or_hotfix_prs" integer NOT NULL,
	"change_failure_proxy" double precision,
	CONSTRAINT "benchmark_corpus_pkey" PRIMARY KEY("repository_key","month"),
	CONSTRAINT "benchmark_corpus_month_check" CHECK ("benchmark_corpus"."month" = date_trunc('month', "benchmark_corpus"."month")::date)
);
--> statement-breakpoint
CREATE TABLE "benchmark_corpus_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"window_from" date NOT NULL,
	"window_to" date NOT NULL,
	"cursor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"lease_job_id" text,
	"lease_until" timestamp with time zone,
	"paused_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "benchmark_corpus_source" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"kind" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"window_from" date NOT NULL,
	"window_to" date NOT NULL,
	"repositories" integer NOT NULL,
	CONSTRAINT "benchmark_corpus_source_one_row" CHECK ("benchmark_corpus_source"."id" = 1),
	CONSTRAINT "benchmark_corpus_source_kind_check" CHECK ("benchmark_corpus_source"."kind" in ('snapshot', 'live'))
);
--> statement-breakpoint
CREATE TABLE "benchmark_corpus_staging" (
	"run_id" uuid NOT NULL,
	"repository_key" text NOT NULL,
	"month" date NOT NULL,
	"prs_merged" integer NOT NULL,
	"active_authors" integer NOT NULL,
	"pr_cycle_time_p50_seconds" double precision,
	"prs_merged_per_active_author" double precision,
	"releases" integer NOT NULL,
	"revert_or_hotfix_prs" integer NOT NULL,
	"change_failure_proxy" double precision,
	CONSTRAINT "benchmark_corpus_staging_pkey" PRIMARY KEY("run_id","repository_key","month")
);
--> statement-breakpoint
ALTER TABLE "benchmark_corpus_staging" ADD CONSTRAINT "benchmark_corpus_staging_run_id_benchmark_corpus_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."benchmark_corpus_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "benchmark_corpus_runs_window_idx" ON "benchmark_corpus_runs" USING btree ("window_from","window_to");--> statement-breakpoint
-- The corpus is global public data (docs/benchmarks.md): no tenant_id, so no floor. Tenant work
-- (the cube layer runs as app_tenant) reads it; only system work (the corpus workflow, the
-- snapshot load after migrate) writes it. The default privileges of migration 0031 granted
-- app_tenant writes on every new table: taken back here.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "benchmark_corpus", "benchmark_corpus_source" FROM app_tenant;
--> statement-breakpoint
-- The run cursors and the staging rows are the workflow's own: tenant work neither reads nor writes them.
REVOKE ALL ON "benchmark_corpus_runs", "benchmark_corpus_staging" FROM app_tenant;
