import { activeConnections } from "../shared/connections.js";
import { asSystem, withTenant } from "../../db/tenancy.js";
import { defineJob } from "../../jobs/define.js";
import { scheduled } from "../../jobs/maintenance.js";
import { syncKinds, trackerSyncWorkflow } from "./syncJob.js";
const TRACKERS_SWEEP = "trackers.sweep-due";
const trackersSyncDue = defineJob({
  ...scheduled,
  name: "trackers.sync-due",
  summary: "Every 30 minutes: an incremental sync job for every active issue-tracker connection (Jira, Linear) of a configured tracker.",
  idempotency: "Only enqueues; a sync finding another sync of its connection running skips itself, and a sync run twice writes the same rows.",
  async run(ctx, payload) {
    const kinds = syncKinds(ctx.app.config);
    if (kinds.length === 0) return { enqueued: 0 };
    const { db } = ctx.app.database;
    const due = await asSystem("schedule", () => activeConnections(db, kinds));
    const mode = payload?.schedule === TRACKERS_SWEEP ? "sweep" : "incremental";
    for (const c of due) {
      await withTenant(c.tenantId, () => ctx.app.jobs.send(trackerSyncWorkflow, { tenantId: c.tenantId, connectionId: c.id, kind: c.kind, mode }));
    }
    return { enqueued: due.length };
  }
});
export {
  TRACKERS_SWEEP,
  trackersSyncDue
};
