DROP INDEX "issues_tenant_closed_idx";--> statement-breakpoint
CREATE INDEX "issues_tenant_closed_idx" ON "issues" USING btree ("tenant_id","closed_at") WHERE closed_at is not null;