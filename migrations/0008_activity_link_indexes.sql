CREATE INDEX "ai_sessions_tenant_project_pr_idx" ON "ai_sessions" USING btree ("tenant_id","project_key","pr_number");--> statement-breakpoint
CREATE INDEX "ai_sessions_tenant_project_branch_idx" ON "ai_sessions" USING btree ("tenant_id","project_key","branch");--> statement-breakpoint
CREATE INDEX "ai_sessions_commit_shas_idx" ON "ai_sessions" USING gin ("commit_shas");--> statement-breakpoint
CREATE INDEX "commits_project_branch_idx" ON "commits" USING btree ("project_id","branch");