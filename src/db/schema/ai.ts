/** The AI features (docs/ai.md): an organisation's model choice, every model call, session summaries and assessments, notebooks. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { aiSessions } from './activity.js';
import { tenants, users } from './identity.js';

/** One row per organisation that chose its own provider, models, key or token budget (Settings › AI). */
export const aiSettings = pgTable('ai_settings', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  /** openai, anthropic or google; null: the environment's models. */
  provider: text('provider'),
  /** Tried in order. */
  models: text('models').array().notNull().default(sql`'{}'::text[]`),
  /** AES-256-GCM under a key derived from OAUTH_ENCRYPTION_KEY, bound to the tenant; never shown again. */
  apiKeySealed: text('api_key_sealed'),
  /** Input plus output tokens per calendar month (UTC); null: no limit. */
  monthlyTokenBudget: bigint('monthly_token_budget', { mode: 'number' }),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The labels an owner says mark a PR as AI-assisted, besides `ai-assisted` (Settings › AI;
 * docs/ai-attribution.md), stored lower-cased. No row: only `ai-assisted`.
 */
export const aiAttributionSettings = pgTable('ai_attribution_settings', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every attempt at a model call, successful or not: the attempt log, the budget's usage and the cube's `ai_calls`. */
export const aiCalls = pgTable(
  'ai_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    feature: text('feature', { enum: ['summary', 'assessment', 'notebook'] }).notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    /** ok, rate_limited, server_error, timeout, invalid_output, client_error, network_error, budget. */
    outcome: text('outcome').notNull(),
    status: integer('status'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_calls_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/** The summary of a session's transcript; replaced by a re-run. */
export const sessionSummaries = pgTable('session_summaries', {
  sessionId: uuid('session_id').primaryKey().references(() => aiSessions.id, { onDelete: 'cascade' }),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  model: text('model').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The rubric's answers for a session (docs/ai.md "Quality assessment"); `score` 0–100 is derived from them. */
export const sessionAssessments = pgTable(
  'session_assessments',
  {
    sessionId: uuid('session_id').primaryKey().references(() => aiSessions.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    taskCompleted: boolean('task_completed').notNull(),
    testsRun: boolean('tests_run').notNull(),
    reworkNeeded: boolean('rework_needed').notNull(),
    riskyActions: boolean('risky_actions').notNull(),
    score: smallint('score').notNull(),
    rationale: text('rationale').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('session_assessments_score_range', sql`${t.score} between 0 and 100`)],
);

/** A notebook: a user's questions to the analytics agent; `shared` lets every member of the tenant read and re-run it. */
export const notebooks = pgTable(
  'notebooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notebooks_tenant_user_idx').on(t.tenantId, t.userId)],
);

/** One question of a notebook with the last run's steps (tool calls and their results) and answer. */
export const notebookCells = pgTable(
  'notebook_cells',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    notebookId: uuid('notebook_id').notNull().references(() => notebooks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    /** new, done or failed. */
    status: text('status').notNull().default('new'),
    steps: jsonb('steps').notNull().default(sql`'[]'::jsonb`),
    answer: text('answer'),
    error: text('error'),
    model: text('model'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    ranAt: timestamp('ran_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notebook_cells_notebook_idx').on(t.notebookId, t.position)],
);
