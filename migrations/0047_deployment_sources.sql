-- Where a project's deployments come from (issue 36, "DORA with no pipeline changes";
-- docs/codehost-deployments.md): one source at a time, NULL until the first source that delivers a
-- deployment claims it or an owner chooses one; the workflow and branch that count as a production
-- deployment, and the environment name that is production, for the code host's own records.
ALTER TABLE "projects" ADD COLUMN "deployment_source" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deployment_workflow" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deployment_branch" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "production_environment" text;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_deployment_source" CHECK ("projects"."deployment_source" in ('webhook', 'deployments', 'workflow_runs', 'releases'));
--> statement-breakpoint
-- The organisation-wide workflow pattern: a completed run of a matching workflow on the branch
-- (default: the repository's default branch) is a production deployment of a project that has no
-- source yet or uses workflow runs without a workflow of its own.
CREATE TABLE "deployment_source_defaults" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"workflow" text NOT NULL,
	"branch" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_source_defaults" ADD CONSTRAINT "deployment_source_defaults_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
SELECT app_tenant_floor('deployment_source_defaults');
