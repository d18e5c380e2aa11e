-- Where each reviewer of a pull request stands, from the code host's review events (issue 33,
-- "Open work now"; docs/open-work.md).
CREATE TABLE "pull_request_reviewers" (
	"tenant_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"pull_request_number" integer NOT NULL,
	"reviewer" text NOT NULL,
	"state" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pull_request_reviewers_project_id_pull_request_number_reviewer_pk" PRIMARY KEY("project_id","pull_request_number","reviewer"),
	CONSTRAINT "pull_request_reviewers_state" CHECK ("pull_request_reviewers"."state" in ('requested', 'commented', 'approved', 'changes_requested', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "pull_request_reviewers" ADD CONSTRAINT "pull_request_reviewers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_request_reviewers" ADD CONSTRAINT "pull_request_reviewers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT app_tenant_floor('pull_request_reviewers');
