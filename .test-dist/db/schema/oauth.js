import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity.js";
const oauthRecords = pgTable(
  "oauth_records",
  {
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: text("payload").notNull(),
    grantId: text("grant_id"),
    uid: text("uid"),
    /** sha256 of a DeviceCode's user code (the CLI login's short code), so the approval page can find it. */
    userCode: text("user_code"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index("oauth_records_grant_idx").on(t.grantId),
    index("oauth_records_uid_idx").on(t.uid),
    index("oauth_records_user_code_idx").on(t.userCode),
    index("oauth_records_expires_idx").on(t.expiresAt)
  ]
);
const mcpGrants = pgTable(
  "mcp_grants",
  {
    grantId: text("grant_id").primaryKey(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    /** Permissions at consent (`owner` → admin, read, write; others → read, write). */
    permissions: text("permissions").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull()
  },
  (t) => [index("mcp_grants_tenant_idx").on(t.tenantId), index("mcp_grants_user_idx").on(t.userId), index("mcp_grants_expires_idx").on(t.expiresAt)]
);
export {
  mcpGrants,
  oauthRecords
};
