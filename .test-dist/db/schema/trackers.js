import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity.js";
import { integrationConnections } from "./integrations.js";
const trackerSyncs = pgTable(
  "tracker_syncs",
  {
    connectionId: uuid("connection_id").primaryKey().references(() => integrationConnections.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    /** Issues updated at or after this were not all seen yet; the next incremental sync starts here. */
    updatedSince: timestamp("updated_since", { withTimezone: true }),
    /** The sync job holding the connection, until `leaseUntil`. */
    leaseJobId: text("lease_job_id"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** The job whose page cursor `cursor` is; a retry of that job resumes there. */
    cursorJobId: text("cursor_job_id"),
    cursor: jsonb("cursor").$type(),
    /** Issues written by the job `cursorJobId` so far (live progress counts from here after a resume). */
    done: integer("done").notNull().default(0),
    /** Vendor webhook registration (Jira dynamic webhook ids, their expiry; Linear webhook id). */
    webhook: jsonb("webhook").$type(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [index("tracker_syncs_tenant_idx").on(t.tenantId)]
);
const trackerDeletedIssues = pgTable(
  "tracker_deleted_issues",
  {
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    externalId: text("external_id").notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider, t.externalId] })]
);
export {
  trackerDeletedIssues,
  trackerSyncs
};
