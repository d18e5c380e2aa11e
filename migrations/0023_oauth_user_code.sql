ALTER TABLE "oauth_records" ADD COLUMN "user_code" text;--> statement-breakpoint
CREATE INDEX "oauth_records_user_code_idx" ON "oauth_records" USING btree ("user_code");