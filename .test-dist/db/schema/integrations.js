import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity.js";
const INTEGRATION_KINDS = ["jira", "linear", "slack", "notion"];
const CONNECTION_STATES = ["active", "needs_reconnect", "needs_attention"];
const integrationConnections = pgTable(
  "integration_connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind").$type().notNull(),
    externalId: text("external_id").notNull(),
    displayName: text("display_name"),
    scopes: text("scopes"),
    accessTokenSealed: text("access_token_sealed").notNull(),
    refreshTokenSealed: text("refresh_token_sealed"),
    tokenExpiresAt: timestamp("token_expires_at", { withTimezone: true }),
    /** Vendor-specific choices of the owner (project mapping, digest channels, parent page). */
    settings: jsonb("settings").$type().notNull().default({}),
    state: text("state").$type().notNull().default("active"),
    /** Why the state is not `active`, in words an owner can act on; never a vendor's raw body. */
    stateDetail: text("state_detail"),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    lastError: text("last_error"),
    connectedBy: uuid("connected_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    uniqueIndex("integration_connections_tenant_kind_external").on(t.tenantId, t.kind, t.externalId),
    // Inbound vendor requests name the workspace, not the tenant: this finds the tenant.
    index("integration_connections_kind_external").on(t.kind, t.externalId)
  ]
);
const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** `notion`, `jira`. */
    vendor: text("vendor").notNull(),
    deliveryId: text("delivery_id").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.vendor, t.deliveryId] }), index("webhook_deliveries_received_idx").on(t.receivedAt)]
);
export {
  CONNECTION_STATES,
  INTEGRATION_KINDS,
  integrationConnections,
  webhookDeliveries
};
