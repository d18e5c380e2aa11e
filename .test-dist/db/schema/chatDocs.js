import { date, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity.js";
import { integrationConnections } from "./integrations.js";
import { teams } from "./organisation.js";
const chatDigestPosts = pgTable(
  "chat_digest_posts",
  {
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id").notNull().references(() => integrationConnections.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    channel: text("channel").notNull(),
    /** Monday (UTC) of the week the digest reports. */
    weekStart: date("week_start", { mode: "string" }).notNull(),
    messageTs: text("message_ts"),
    postedAt: timestamp("posted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channel, t.weekStart] })]
);
const docsPages = pgTable(
  "docs_pages",
  {
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id").notNull().references(() => integrationConnections.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    /** YYYY-MM, the closed month the page reports. */
    month: text("month").notNull(),
    pageId: text("page_id").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("docs_pages_connection_team_month").on(t.connectionId, t.teamId, t.month)]
);
const docsVerificationTokens = pgTable(
  "docs_verification_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenSealed: text("token_sealed").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [index("docs_verification_tokens_received_idx").on(t.receivedAt)]
);
export {
  chatDigestPosts,
  docsPages,
  docsVerificationTokens
};
