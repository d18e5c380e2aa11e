import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity.js";
const scheduleRuns = pgTable(
  "schedule_runs",
  {
    schedule: text("schedule").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The instance that won the window (`host:pid:random`), for operators and tests. */
    claimedBy: text("claimed_by").notNull(),
    /** The pg-boss job enqueued for the window. */
    jobId: uuid("job_id")
  },
  (t) => [primaryKey({ columns: [t.schedule, t.windowStart] }), index("schedule_runs_claimed_at_idx").on(t.claimedAt)]
);
const workflowCheckpoints = pgTable(
  "workflow_checkpoints",
  {
    jobId: uuid("job_id").primaryKey(),
    workflow: text("workflow").notNull(),
    /** Null for workflows that belong to no tenant (maintenance). */
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    stepsDone: integer("steps_done").notNull().default(0),
    state: jsonb("state").notNull().default({}),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [index("workflow_checkpoints_updated_at_idx").on(t.updatedAt)]
);
const staleIntegrations = pgTable(
  "stale_integrations",
  {
    kind: text("kind").notNull(),
    ref: text("ref").notNull(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    /** Last delivery or sync seen; null when none ever arrived. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }),
    flaggedAt: timestamp("flagged_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.kind, t.ref] }), index("stale_integrations_tenant_idx").on(t.tenantId)]
);
export {
  scheduleRuns,
  staleIntegrations,
  workflowCheckpoints
};
