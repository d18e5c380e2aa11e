CREATE TABLE "webhook_deliveries" (
	"vendor" text NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_vendor_delivery_id_pk" PRIMARY KEY("vendor","delivery_id")
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received_idx" ON "webhook_deliveries" USING btree ("received_at");--> statement-breakpoint
-- Claimed before a delivery's tenant is known (Notion event ids, Jira webhook identifiers): no
-- tenant_id, so no floor; the tenant role gets no privilege (the default privileges of 0031 granted
-- it). Only system work (`inbound-routing`) reads or writes it.
REVOKE ALL ON TABLE "webhook_deliveries" FROM app_tenant;
