import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';

/**
 * A tenant's Paddle subscriptions as the last verified notification described them (docs/billing.md).
 * `event_occurred_at` is the vendor's time of that notification: an older one never overwrites it.
 * `status_since` is when the subscription entered its current status (the grace period counts from it).
 */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    subscriptionId: text('subscription_id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    customerId: text('customer_id'),
    status: text('status').notNull(),
    priceId: text('price_id'),
    plan: text('plan'),
    renewsAt: timestamp('renews_at', { withTimezone: true }),
    statusSince: timestamp('status_since', { withTimezone: true }).notNull(),
    eventOccurredAt: timestamp('event_occurred_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_subscriptions_tenant').on(t.tenantId)],
);

/** Every notification taken for a tenant, by Paddle's event id: a redelivery is recognised and changes nothing. */
export const billingEvents = pgTable('billing_events', {
  eventId: text('event_id').primaryKey(),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
  eventType: text('event_type').notNull(),
  subscriptionId: text('subscription_id'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  /** False when a newer notification of the subscription had already been applied. */
  applied: boolean('applied').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
