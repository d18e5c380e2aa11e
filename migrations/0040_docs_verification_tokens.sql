CREATE TABLE "docs_verification_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_sealed" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "docs_verification_tokens_received_idx" ON "docs_verification_tokens" USING btree ("received_at");
--> statement-breakpoint
-- A deployment secret, not tenant data: no tenant_id, so no floor; instead the tenant role gets
-- no privilege at all (the default privileges of 0031 granted it). Only system work reads it.
REVOKE ALL ON TABLE "docs_verification_tokens" FROM app_tenant;
