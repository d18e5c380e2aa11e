import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';

/**
 * One row per person, UTC day and tool of AI-tool telemetry (src/aiTelemetry), added to at intake:
 * raw events are never rows. The person is the telemetry's `user.email` (lower-cased), matched to
 * the register at query time; `person_key` is that e-mail, or `account:<id>` when only an account
 * id came. `recent_batches`: as ai_sessions.recent_batches, for events of no session.
 */
export const aiTelemetryDays = pgTable(
  'ai_telemetry_days',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    personKey: text('person_key').notNull(),
    personEmail: text('person_email'),
    personAccount: text('person_account'),
    day: date('day', { mode: 'string' }).notNull(),
    tool: text('tool').notNull(),
    sessions: integer('sessions').notNull().default(0),
    prompts: integer('prompts').notNull().default(0),
    apiRequests: integer('api_requests').notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'number' }).notNull().default(0),
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'number' }).notNull().default(0),
    toolCalls: integer('tool_calls').notNull().default(0),
    linesAdded: bigint('lines_added', { mode: 'number' }).notNull().default(0),
    linesRemoved: bigint('lines_removed', { mode: 'number' }).notNull().default(0),
    editsAccepted: integer('edits_accepted').notNull().default(0),
    editsRejected: integer('edits_rejected').notNull().default(0),
    commits: integer('commits').notNull().default(0),
    pullRequests: integer('pull_requests').notNull().default(0),
    activeSeconds: doublePrecision('active_seconds').notNull().default(0),
    recentBatches: bigint('recent_batches', { mode: 'bigint' }).array().notNull().default(sql`'{}'::bigint[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ai_telemetry_days_person_day').on(t.tenantId, t.personKey, t.day, t.tool)],
);

/**
 * The last point counted of each metric series (metric name + point attributes + resource
 * attributes), so cumulative sums become increments and a re-sent export adds nothing. The start
 * time is state, not identity: a new start is a reset (the process restarted). `increment` is what
 * the last upsert added, returned by the same statement (docs/ai-telemetry.md).
 */
export const aiTelemetrySeries = pgTable(
  'ai_telemetry_series',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    seriesKey: uuid('series_key').notNull(),
    cumulative: boolean('cumulative').notNull(),
    startNs: bigint('start_ns', { mode: 'bigint' }).notNull(),
    timeNs: bigint('time_ns', { mode: 'bigint' }).notNull(),
    value: doublePrecision('value').notNull(),
    increment: doublePrecision('increment').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.seriesKey] })],
);

/**
 * What the intake received, per tenant, signal and metric or event name: accepted, ignored (a name
 * we do not read) and rejected items, and when. `shard` spreads one tenant's concurrent requests
 * over several rows so they do not queue on one row lock; readers sum the shards.
 */
export const aiTelemetryIntake = pgTable(
  'ai_telemetry_intake',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    signal: text('signal').notNull(),
    name: text('name').notNull(),
    shard: smallint('shard').notNull(),
    accepted: bigint('accepted', { mode: 'number' }).notNull().default(0),
    ignored: bigint('ignored', { mode: 'number' }).notNull().default(0),
    rejected: bigint('rejected', { mode: 'number' }).notNull().default(0),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.signal, t.name, t.shard] })],
);
