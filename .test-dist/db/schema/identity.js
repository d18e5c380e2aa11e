import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid, uniqueIndex, varchar } from "drizzle-orm/pg-core";
const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
});
const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased, so sign-in is case-insensitive. */
    email: text("email").notNull(),
    displayName: text("display_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)]
);
const tenantMemberships = pgTable(
  "tenant_memberships",
  {
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "member"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index("tenant_memberships_user_idx").on(t.userId)]
);
const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    /** Stored lower-cased, like users.email. */
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "member"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true })
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    uniqueIndex("invitations_open_key").on(t.tenantId, t.email).where(sql`accepted_at is null and revoked_at is null`)
  ]
);
const loginTokens = pgTable("login_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  tokenHash: text("token_hash").notNull().unique(),
  email: text("email").notNull(),
  returnUrl: text("return_url"),
  /** A link asked for on an invitation's page: opening it accepts that invitation (docs/auth.md). */
  invitationId: uuid("invitation_id").references(() => invitations.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
});
const loginSessions = pgTable(
  "login_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    activeTenantId: uuid("active_tenant_id").references(() => tenants.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the cookie's id was last replaced; ids rotate at sign-in and then daily. */
    rotatedAt: timestamp("rotated_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * SHA-256 of the id this session had before its last rotation (never the id itself): it keeps
     * working for a short grace after `rotated_at` (SESSION_GRACE_MS), so requests already in flight
     * with the old cookie are not signed out.
     */
    previousTokenHash: text("previous_token_hash").unique(),
    idleExpiresAt: timestamp("idle_expires_at", { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp("absolute_expires_at", { withTimezone: true }).notNull()
  },
  (t) => [index("login_sessions_user_idx").on(t.userId), index("login_sessions_expiry_idx").on(t.absoluteExpiresAt)]
);
const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** First characters of the key, safe to show: `gai_` plus 6. */
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * The webhook API's two windows for this key (100 a minute, 1000 an hour): requests counted
     * since the window opened, and when it closes (NULL: never used). Kept on the key's row so
     * that finding the key, counting and `last_used_at` are one row update (docs/webhooks.md).
     */
    webhookMinutePoints: integer("webhook_minute_points").notNull().default(0),
    webhookMinuteResetsAt: timestamp("webhook_minute_resets_at", { withTimezone: true }),
    webhookHourPoints: integer("webhook_hour_points").notNull().default(0),
    webhookHourResetsAt: timestamp("webhook_hour_resets_at", { withTimezone: true })
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_tenant_idx").on(t.tenantId).where(sql`revoked_at is null`)]
);
const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" })
});
const externalIdentities = pgTable(
  "external_identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["github", "gitlab", "google", "microsoft"] }).notNull(),
    subject: text("subject").notNull(),
    email: text("email"),
    username: text("username"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("external_identities_provider_subject_key").on(t.provider, t.subject), index("external_identities_user_idx").on(t.userId)]
);
const signInFlows = pgTable(
  "sign_in_flows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cookieHash: text("cookie_hash").notNull(),
    provider: text("provider").notNull(),
    state: text("state").notNull(),
    nonce: text("nonce"),
    codeVerifier: text("code_verifier").notNull(),
    returnUrl: text("return_url").notNull(),
    mode: text("mode"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("sign_in_flows_cookie_hash_key").on(t.cookieHash), index("sign_in_flows_expiry_idx").on(t.expiresAt)]
);
export {
  apiKeys,
  externalIdentities,
  invitations,
  loginSessions,
  loginTokens,
  rateLimits,
  signInFlows,
  tenantMemberships,
  tenants,
  users
};
