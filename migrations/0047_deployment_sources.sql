-- Where a project's deployments come from (issue 36, "DORA with no pipeline changes";
-- docs/codehost-deployments.md): one source at a time, NULL until the first source that delivers a
-- deployment claims it or an owner chooses one; the workflow and branch that count as a production
-- deployment, and the environment name that is production, for the code host's own records.
ALTER TABLE "projects" ADD COLUMN "deployment_source" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deployment_workflow" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deployment_branch" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "production_environment" text;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_deployment_source" CHECK ("projects"."deployment_source" in ('webhook', 'deployments', 'workflow_runs', 'releases'));
