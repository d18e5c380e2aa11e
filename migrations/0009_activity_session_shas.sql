CREATE TABLE "ai_session_shas" (
	"session_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"sha" text NOT NULL,
	CONSTRAINT "ai_session_shas_session_id_sha_pk" PRIMARY KEY("session_id","sha")
);
--> statement-breakpoint
DROP INDEX "ai_sessions_commit_shas_idx";--> statement-breakpoint
ALTER TABLE "ai_session_shas" ADD CONSTRAINT "ai_session_shas_session_id_ai_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ai_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_session_shas" ADD CONSTRAINT "ai_session_shas_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_session_shas_tenant_sha_idx" ON "ai_session_shas" USING btree ("tenant_id","sha");