/**
 * `trackers.sync-due`, scheduled: the safety net under the webhooks. Every active connection of a
 * configured tracker gets an incremental `trackers.sync` (its own job, as its tenant), so an issue
 * whose webhook was lost is caught by the next window, and Jira's 30-day webhooks are renewed.
 * Under the `trackers.sweep-due` schedule (every 6 hours) the runs are sweeps: an issue deleted at
 * the tracker whose delete webhook was lost is found by comparing ids.
 */
import { activeConnections } from '../shared/connections.js';
import { asSystem, withTenant } from '../../db/tenancy.js';
import { defineJob } from '../../jobs/define.js';
import { scheduled } from '../../jobs/maintenance.js';
import { syncKinds, trackerSyncWorkflow } from './syncJob.js';
import type { TrackerKind } from './types.js';

/** The schedule (on the `trackers.sync-due` queue) whose runs also sweep for lost deletes. */
export const TRACKERS_SWEEP = 'trackers.sweep-due';

export const trackersSyncDue = defineJob({
  ...scheduled,
  name: 'trackers.sync-due',
  summary: 'Every 30 minutes: an incremental sync job for every active issue-tracker connection (Jira, Linear) of a configured tracker.',
  idempotency: 'Only enqueues; a sync finding another sync of its connection running skips itself, and a sync run twice writes the same rows.',
  async run(ctx, payload) {
    const kinds = syncKinds(ctx.app.config);
    if (kinds.length === 0) return { enqueued: 0 };
    const { db } = ctx.app.database;
    // Across tenants by design: the schedule fans out; each sync then runs as its own tenant.
    const due = await asSystem('schedule', () => activeConnections(db, kinds));
    // The sweep schedule runs the same fan-out with the id sweep added (lost delete webhooks).
    const mode = payload?.schedule === TRACKERS_SWEEP ? 'sweep' : 'incremental';
    for (const c of due) {
      await withTenant(c.tenantId, () => ctx.app.jobs.send(trackerSyncWorkflow, { tenantId: c.tenantId, connectionId: c.id, kind: c.kind as TrackerKind, mode }));
    }
    return { enqueued: due.length };
  },
});
