import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './identity.js';

/** The vendors whose daily reports are pulled (docs/ai-vendor-reports.md). */
export const AI_VENDOR_SOURCES = ['claude_code_analytics', 'copilot', 'cursor'] as const;
export type AiVendorSource = (typeof AI_VENDOR_SOURCES)[number];

/**
 * One vendor report source of a tenant: the owner's admin key (AES-256-GCM under a key derived
 * from OAUTH_ENCRYPTION_KEY, bound to the tenant and source; null for Copilot through the linked
 * code-host installation), where the pull stands (`cursor`, written in the transaction that wrote
 * the rows it covers) and what the last run did, for the settings page.
 */
export const aiVendorSources = pgTable(
  'ai_vendor_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    source: text('source').$type<AiVendorSource>().notNull(),
    keySealed: text('key_sealed'),
    /** Copilot: `{ org }`; every source: `{ backfillDays }`. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** `{ day, page }` of the pull under way, `syncedThrough` (the last day pulled whole), Cursor's `commitsPage`. */
    cursor: jsonb('cursor').$type<Record<string, unknown>>().notNull().default({}),
    leaseJob: text('lease_job'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    /** What the last run wrote (days, person-days, commits, seats, unmatched people). */
    lastOutcome: jsonb('last_outcome').$type<Record<string, unknown>>(),
    /** A part of the vendor's API the plan does not include (Cursor AI Code Tracking), in words. */
    notice: text('notice'),
    savedBy: uuid('saved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_vendor_sources_tenant_source').on(t.tenantId, t.source),
    check('ai_vendor_sources_source', sql`${t.source} in ('claude_code_analytics', 'copilot', 'cursor')`),
  ],
);

/**
 * One person's day as a vendor's daily report gives it, summed over the report's records of that
 * person and day (Claude Code reports one per terminal type). `person_key` is the lower-cased
 * e-mail, `login:<login>` (Copilot, a code-host username) or `api_key:<name>` (a Claude Code API
 * key, no person). Never money: the vendors' cost estimates are not read.
 */
export const aiVendorDays = pgTable(
  'ai_vendor_days',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    source: text('source').$type<AiVendorSource>().notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    personKey: text('person_key').notNull(),
    personEmail: text('person_email'),
    personLogin: text('person_login'),
    sessions: integer('sessions').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    linesAdded: bigint('lines_added', { mode: 'number' }).notNull().default(0),
    linesRemoved: bigint('lines_removed', { mode: 'number' }).notNull().default(0),
    linesSuggested: bigint('lines_suggested', { mode: 'number' }).notNull().default(0),
    editsAccepted: integer('edits_accepted').notNull().default(0),
    editsRejected: integer('edits_rejected').notNull().default(0),
    commits: integer('commits').notNull().default(0),
    pullRequests: integer('pull_requests').notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'number' }).notNull().default(0),
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'number' }).notNull().default(0),
    /** `{ "<model>": { input, output, cacheRead, cacheWrite } }`: tokens, never cost. */
    tokensByModel: jsonb('tokens_by_model').$type<Record<string, Record<string, number>>>().notNull().default({}),
    /** What else the report says that no measure reads yet (IDEs, features, most used model, GitHub teams). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_vendor_days_person_day').on(t.tenantId, t.source, t.day, t.personKey),
    index('ai_vendor_days_tenant_day').on(t.tenantId, t.day),
  ],
);

/**
 * Per-commit AI lines as a vendor reports them (Cursor AI Code Tracking), for attribution
 * (METRICS.md "AI attribution": vendor per-commit data is high). `sha` is lower-case as the vendor
 * sent it; `repo` the vendor's repository name. docs/ai-vendor-reports.md lists every column.
 */
export const aiVendorCommits = pgTable(
  'ai_vendor_commits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    source: text('source').$type<AiVendorSource>().notNull(),
    sha: text('sha').notNull(),
    repo: text('repo'),
    branch: text('branch'),
    personEmail: text('person_email'),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    aiLinesAdded: integer('ai_lines_added').notNull().default(0),
    aiLinesDeleted: integer('ai_lines_deleted').notNull().default(0),
    tabLinesAdded: integer('tab_lines_added').notNull().default(0),
    composerLinesAdded: integer('composer_lines_added').notNull().default(0),
    nonAiLinesAdded: integer('non_ai_lines_added').notNull().default(0),
    totalLinesAdded: integer('total_lines_added').notNull().default(0),
    totalLinesDeleted: integer('total_lines_deleted').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_vendor_commits_source_sha').on(t.tenantId, t.source, t.sha),
    index('ai_vendor_commits_tenant_sha').on(t.tenantId, t.sha),
  ],
);
