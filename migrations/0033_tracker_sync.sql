CREATE TABLE "tracker_deleted_issues" (
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_deleted_issues_tenant_id_provider_external_id_pk" PRIMARY KEY("tenant_id","provider","external_id")
);
--> statement-breakpoint
CREATE TABLE "tracker_syncs" (
	"connection_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"updated_since" timestamp with time zone,
	"lease_job_id" text,
	"lease_until" timestamp with time zone,
	"cursor_job_id" text,
	"cursor" jsonb,
	"done" integer DEFAULT 0 NOT NULL,
	"webhook" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracker_deleted_issues" ADD CONSTRAINT "tracker_deleted_issues_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_syncs" ADD CONSTRAINT "tracker_syncs_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_syncs" ADD CONSTRAINT "tracker_syncs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_syncs_tenant_idx" ON "tracker_syncs" USING btree ("tenant_id");--> statement-breakpoint
-- The tenant floor (docs/tenancy.md "Adding a table").
SELECT app_tenant_floor('tracker_syncs');--> statement-breakpoint
SELECT app_tenant_floor('tracker_deleted_issues');
