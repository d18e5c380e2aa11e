-- The 90-day backfill of a project's deployments from the code host's REST API (issue 36;
-- docs/codehost-deployments.md "Backfill"): one row per project and source, with the cursor a
-- restart, a retry or the continuation after a rate limit resumes at.
CREATE TABLE "codehost_backfills" (
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"source" text NOT NULL,
	"installation_id" bigint,
	"since" timestamp with time zone NOT NULL,
	"cursor" jsonb,
	"applied" integer DEFAULT 0 NOT NULL,
	"lease_job_id" text,
	"lease_until" timestamp with time zone,
	"waiting_until" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "codehost_backfills_project_id_source_pk" PRIMARY KEY("project_id","source")
);
--> statement-breakpoint
ALTER TABLE "codehost_backfills" ADD CONSTRAINT "codehost_backfills_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "codehost_backfills" ADD CONSTRAINT "codehost_backfills_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "codehost_backfills_tenant_idx" ON "codehost_backfills" USING btree ("tenant_id");--> statement-breakpoint
SELECT app_tenant_floor('codehost_backfills');
