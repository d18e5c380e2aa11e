CREATE TABLE "ai_session_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"pull_request_id" uuid,
	"commit_id" uuid,
	"linked_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_session_links_one_target" CHECK ((pull_request_id is null) <> (commit_id is null))
);
--> statement-breakpoint
CREATE TABLE "ai_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"external_id" text,
	"tool" text NOT NULL,
	"model" text,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"project_key" text,
	"branch" text,
	"pr_number" integer,
	"commit_shas" text[] DEFAULT '{}'::text[] NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_read_tokens" bigint DEFAULT 0 NOT NULL,
	"cache_write_tokens" bigint DEFAULT 0 NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"tool_call_count" integer DEFAULT 0 NOT NULL,
	"transcript_key" text,
	"transcript_bytes" integer,
	"transcript_lines" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "codehost_deliveries" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid,
	"installation_id" bigint,
	"event" text NOT NULL,
	"action" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "codehost_installations" (
	"installation_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" uuid,
	"account_login" text,
	"account_type" text,
	"linked_by_user_id" uuid,
	"linked_at" timestamp with time zone,
	"suspended_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"unlinked_logged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"sha" text NOT NULL,
	"branch" text,
	"author_username" text,
	"author_name" text,
	"author_email" text,
	"committed_at" timestamp with time zone NOT NULL,
	"message" text NOT NULL,
	"coauthors" text[] DEFAULT '{}'::text[] NOT NULL,
	"ai_coauthors" text[] DEFAULT '{}'::text[] NOT NULL,
	"url" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pull_request_commits" (
	"pull_request_id" uuid NOT NULL,
	"commit_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	CONSTRAINT "pull_request_commits_pull_request_id_commit_id_pk" PRIMARY KEY("pull_request_id","commit_id")
);
--> statement-breakpoint
CREATE TABLE "pull_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"provider" text DEFAULT 'codehost' NOT NULL,
	"external_id" text NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"author_username" text,
	"state" text NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"additions" integer DEFAULT 0 NOT NULL,
	"deletions" integer DEFAULT 0 NOT NULL,
	"changed_files" integer DEFAULT 0 NOT NULL,
	"commit_count" integer DEFAULT 0 NOT NULL,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"head_branch" text,
	"head_sha" text,
	"base_branch" text,
	"merge_commit_sha" text,
	"created_at" timestamp with time zone NOT NULL,
	"merged_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_session_links" ADD CONSTRAINT "ai_session_links_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_session_links" ADD CONSTRAINT "ai_session_links_session_id_ai_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ai_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_session_links" ADD CONSTRAINT "ai_session_links_pull_request_id_pull_requests_id_fk" FOREIGN KEY ("pull_request_id") REFERENCES "public"."pull_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_session_links" ADD CONSTRAINT "ai_session_links_commit_id_commits_id_fk" FOREIGN KEY ("commit_id") REFERENCES "public"."commits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD CONSTRAINT "ai_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_sessions" ADD CONSTRAINT "ai_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codehost_deliveries" ADD CONSTRAINT "codehost_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codehost_installations" ADD CONSTRAINT "codehost_installations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codehost_installations" ADD CONSTRAINT "codehost_installations_linked_by_user_id_users_id_fk" FOREIGN KEY ("linked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commits" ADD CONSTRAINT "commits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commits" ADD CONSTRAINT "commits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_commits" ADD CONSTRAINT "pull_request_commits_pull_request_id_pull_requests_id_fk" FOREIGN KEY ("pull_request_id") REFERENCES "public"."pull_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_commits" ADD CONSTRAINT "pull_request_commits_commit_id_commits_id_fk" FOREIGN KEY ("commit_id") REFERENCES "public"."commits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_commits" ADD CONSTRAINT "pull_request_commits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_requests" ADD CONSTRAINT "pull_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_requests" ADD CONSTRAINT "pull_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_session_links_session_pr" ON "ai_session_links" USING btree ("session_id","pull_request_id") WHERE pull_request_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_session_links_session_commit" ON "ai_session_links" USING btree ("session_id","commit_id") WHERE commit_id is not null;--> statement-breakpoint
CREATE INDEX "ai_session_links_pr_idx" ON "ai_session_links" USING btree ("pull_request_id");--> statement-breakpoint
CREATE INDEX "ai_session_links_commit_idx" ON "ai_session_links" USING btree ("commit_id");--> statement-breakpoint
CREATE INDEX "ai_sessions_tenant_started_idx" ON "ai_sessions" USING btree ("tenant_id","started_at");--> statement-breakpoint
CREATE INDEX "ai_sessions_tenant_user_idx" ON "ai_sessions" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "ai_sessions_tenant_project_idx" ON "ai_sessions" USING btree ("tenant_id","project_key");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_sessions_tenant_external" ON "ai_sessions" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE INDEX "codehost_deliveries_received_idx" ON "codehost_deliveries" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "codehost_installations_tenant_idx" ON "codehost_installations" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "commits_project_sha" ON "commits" USING btree ("project_id","sha");--> statement-breakpoint
CREATE INDEX "commits_tenant_sha_idx" ON "commits" USING btree ("tenant_id","sha");--> statement-breakpoint
CREATE INDEX "commits_tenant_committed_idx" ON "commits" USING btree ("tenant_id","committed_at");--> statement-breakpoint
CREATE INDEX "pull_request_commits_commit_idx" ON "pull_request_commits" USING btree ("commit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pull_requests_project_number" ON "pull_requests" USING btree ("project_id","number");--> statement-breakpoint
CREATE INDEX "pull_requests_tenant_merged_idx" ON "pull_requests" USING btree ("tenant_id","merged_at");--> statement-breakpoint
CREATE INDEX "pull_requests_project_head_branch_idx" ON "pull_requests" USING btree ("project_id","head_branch");--> statement-breakpoint
CREATE VIEW "public"."pull_request_ai_assisted" AS (
  select f.pull_request_id, f.tenant_id, f.via_session, f.via_trailer, f.via_label,
         (f.via_session or f.via_trailer or f.via_label) as ai_assisted
  from (
    select pr.id as pull_request_id, pr.tenant_id,
      exists (select 1 from ai_session_links l where l.pull_request_id = pr.id) as via_session,
      exists (select 1 from pull_request_commits prc join commits c on c.id = prc.commit_id
              where prc.pull_request_id = pr.id and cardinality(c.ai_coauthors) > 0) as via_trailer,
      exists (select 1 from unnest(pr.labels) as label where lower(label) = 'ai-assisted') as via_label
    from pull_requests pr
  ) f);