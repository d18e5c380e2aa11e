ALTER TABLE "api_keys" ADD COLUMN "webhook_minute_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "webhook_minute_resets_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "webhook_hour_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "webhook_hour_resets_at" timestamp with time zone;--> statement-breakpoint
-- Every webhook request updates its key's row: room on each page keeps those updates HOT (no index writes).
ALTER TABLE "api_keys" SET (fillfactor = 70);
