import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';

/**
 * One row per schedule and time window that some instance claimed. The primary key is what makes
 * schedules leaderless: every instance inserts the window it sees, exactly one insert wins, and
 * the winner enqueues the schedule's job in the same transaction. The job queue itself lives in
 * pg-boss's own schema (`pgboss`), installed by `delivery-analytics migrate`.
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    schedule: text('schedule').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The instance that won the window (`host:pid:random`), for operators and tests. */
    claimedBy: text('claimed_by').notNull(),
    /** The pg-boss job enqueued for the window. */
    jobId: uuid('job_id'),
  },
  (t) => [primaryKey({ columns: [t.schedule, t.windowStart] }), index('schedule_runs_claimed_at_idx').on(t.claimedAt)],
);

/**
 * Progress of a workflow (a multi-step job): the steps already done and the state they handed on,
 * so a retry after a crash or a drain resumes at the first unfinished step.
 */
export const workflowCheckpoints = pgTable(
  'workflow_checkpoints',
  {
    jobId: uuid('job_id').primaryKey(),
    workflow: text('workflow').notNull(),
    /** Null for workflows that belong to no tenant (maintenance). */
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    stepsDone: integer('steps_done').notNull().default(0),
    state: jsonb('state').notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workflow_checkpoints_updated_at_idx').on(t.updatedAt)],
);

/**
 * Integrations the nightly `integrations.flag-stale` check found silent: a row per integration
 * (`kind` + its own id in `ref`) with the last activity seen; deleted again once it is active.
 * Kinds today: `codehost_installation` (ref = installation id).
 */
export const staleIntegrations = pgTable(
  'stale_integrations',
  {
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Last delivery or sync seen; null when none ever arrived. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    flaggedAt: timestamp('flagged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.ref] }), index('stale_integrations_tenant_idx').on(t.tenantId)],
);
