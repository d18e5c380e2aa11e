CREATE TABLE "stale_integrations" (
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"last_activity_at" timestamp with time zone,
	"flagged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stale_integrations_kind_ref_pk" PRIMARY KEY("kind","ref")
);
--> statement-breakpoint
ALTER TABLE "stale_integrations" ADD CONSTRAINT "stale_integrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stale_integrations_tenant_idx" ON "stale_integrations" USING btree ("tenant_id");