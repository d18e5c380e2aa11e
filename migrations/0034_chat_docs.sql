CREATE TABLE "chat_digest_posts" (
	"tenant_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"week_start" date NOT NULL,
	"message_ts" text,
	"posted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_digest_posts_team_id_channel_week_start_pk" PRIMARY KEY("team_id","channel","week_start")
);
--> statement-breakpoint
CREATE TABLE "docs_pages" (
	"tenant_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"page_id" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "survey_invitations" ADD COLUMN "chat_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "send_by" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_digest_posts" ADD CONSTRAINT "chat_digest_posts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_digest_posts" ADD CONSTRAINT "chat_digest_posts_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_digest_posts" ADD CONSTRAINT "chat_digest_posts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs_pages" ADD CONSTRAINT "docs_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs_pages" ADD CONSTRAINT "docs_pages_connection_id_integration_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."integration_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs_pages" ADD CONSTRAINT "docs_pages_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "docs_pages_connection_team_month" ON "docs_pages" USING btree ("connection_id","team_id","month");--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_send_by_check" CHECK ("send_by" IN ('email', 'chat', 'both'));--> statement-breakpoint
SELECT app_tenant_floor('chat_digest_posts');--> statement-breakpoint
SELECT app_tenant_floor('docs_pages');
