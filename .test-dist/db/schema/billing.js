import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity.js";
const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    customerId: text("customer_id"),
    status: text("status").notNull(),
    priceId: text("price_id"),
    plan: text("plan"),
    renewsAt: timestamp("renews_at", { withTimezone: true }),
    statusSince: timestamp("status_since", { withTimezone: true }).notNull(),
    eventOccurredAt: timestamp("event_occurred_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [index("billing_subscriptions_tenant").on(t.tenantId)]
);
const billingEvents = pgTable("billing_events", {
  eventId: text("event_id").primaryKey(),
  tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
  eventType: text("event_type").notNull(),
  subscriptionId: text("subscription_id"),
  occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
  /** False when a newer notification of the subscription had already been applied. */
  applied: boolean("applied").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow()
});
export {
  billingEvents,
  billingSubscriptions
};
