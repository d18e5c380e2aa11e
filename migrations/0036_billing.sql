CREATE TABLE "billing_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"subscription_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"applied" boolean NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"customer_id" text,
	"status" text NOT NULL,
	"price_id" text,
	"plan" text,
	"renews_at" timestamp with time zone,
	"status_since" timestamp with time zone NOT NULL,
	"event_occurred_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_events" ADD CONSTRAINT "billing_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_subscriptions_tenant" ON "billing_subscriptions" USING btree ("tenant_id");--> statement-breakpoint
SELECT app_tenant_floor('billing_subscriptions');--> statement-breakpoint
SELECT app_tenant_floor('billing_events');
