import { date, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';
import { integrationConnections } from './integrations.js';
import { teams } from './organisation.js';

/**
 * One weekly digest of a team in a chat channel. The row is claimed (inserted) before the message
 * is posted, so three instances or a retried job post a window's digest once; `posted_at` stays
 * empty while the post is under way and a failed post removes its claim.
 */
export const chatDigestPosts = pgTable(
  'chat_digest_posts',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').notNull().references(() => integrationConnections.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** Monday (UTC) of the week the digest reports. */
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    messageTs: text('message_ts'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.channel, t.weekStart] })],
);

/**
 * The document-workspace page of one team and month: publishing the month again updates this page
 * rather than creating a second one.
 */
export const docsPages = pgTable(
  'docs_pages',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id').notNull().references(() => integrationConnections.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    /** YYYY-MM, the closed month the page reports. */
    month: text('month').notNull(),
    pageId: text('page_id').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('docs_pages_connection_team_month').on(t.connectionId, t.teamId, t.month)],
);

/**
 * Verification tokens Notion sent to the webhook URL (one per webhook subscription created or
 * "Resend token"), sealed, for the operator to read once with the CLI and set as
 * DOCS_WEBHOOK_SECRET. The subscription belongs to the deployment's integration, not to a tenant:
 * no tenant_id, and the tenant role has no privilege on the table (migration 0040).
 */
export const docsVerificationTokens = pgTable(
  'docs_verification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenSealed: text('token_sealed').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('docs_verification_tokens_received_idx').on(t.receivedAt)],
);
