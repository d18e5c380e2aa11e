CREATE TABLE "schedule_runs" (
	"schedule" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text NOT NULL,
	"job_id" uuid,
	CONSTRAINT "schedule_runs_schedule_window_start_pk" PRIMARY KEY("schedule","window_start")
);
--> statement-breakpoint
CREATE TABLE "workflow_checkpoints" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"workflow" text NOT NULL,
	"tenant_id" uuid,
	"steps_done" integer DEFAULT 0 NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workflow_checkpoints" ADD CONSTRAINT "workflow_checkpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_runs_claimed_at_idx" ON "schedule_runs" USING btree ("claimed_at");--> statement-breakpoint
CREATE INDEX "workflow_checkpoints_updated_at_idx" ON "workflow_checkpoints" USING btree ("updated_at");