/**
 * `ai-vendors.pull`: one source of one tenant, resumed at its saved cursor; `ai-vendors.pull-due`
 * (hourly): a pull for every source that is due, Cursor every hour (its data is hourly fresh), the
 * daily reports (Claude Code Analytics, Copilot) once their last success is 20 hours old.
 */
import { z } from 'zod';
import { AI_VENDOR_SOURCES } from '../db/schema/index.js';
import { asSystem, withTenant } from '../db/tenancy.js';
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';
import { Uuid } from '../shared/schemas.js';
import { realSleep } from './http.js';
import { pullSource } from './service.js';
import { sourcesOf } from './store.js';

export const PullPayload = z.object({ tenantId: Uuid, source: z.enum(AI_VENDOR_SOURCES) });
export type PullPayload = z.infer<typeof PullPayload>;

/** Longest Retry-After a pull waits in place; a longer one ends the run and a continuation comes back then. */
const MAX_WAIT_SECONDS = 120;

export const aiVendorPull = defineJob({
  name: 'ai-vendors.pull',
  summary: 'Pulls one vendor report source of one tenant (Claude Code Analytics, Copilot, Cursor): the days since the last pull plus the days the vendor may still fill in, or the backfill on the first run.',
  idempotency: 'Each page is written with the cursor in one transaction, so a retry resumes after the last page written; a day pulled again replaces its rows; one pull of a source runs at a time (lease).',
  payload: PullPayload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 30 * 60,
  async run(ctx, payload) {
    const result = await withTenant(payload.tenantId, () =>
      pullSource(ctx.app, payload.tenantId, payload.source, { jobId: ctx.job.id, signal: ctx.signal, pace: { sleep: realSleep, maxWaitSeconds: MAX_WAIT_SECONDS } }),
    );
    if (result.outcome === 'rate limited') {
      await withTenant(payload.tenantId, () => ctx.app.jobs.send(aiVendorPull, payload, { startAfter: new Date(Date.now() + result.retryAfterSeconds * 1000) }));
    }
    return result;
  },
});

const DAILY_AFTER_MS = 20 * 3600_000;

export const aiVendorsPullDue = defineJob({
  ...scheduled,
  name: 'ai-vendors.pull-due',
  summary: 'Hourly: a pull for every vendor report source that is due (Cursor every hour, the daily reports once a day).',
  idempotency: 'Only enqueues; a pull finding another pull of its source running skips itself, and a pull run twice writes the same rows.',
  async run(ctx) {
    const { db } = ctx.app.database;
    // Across tenants by design: the schedule fans out; each pull then runs as its own tenant.
    const rows = await asSystem('schedule', () => sourcesOf(db));
    const due = rows.filter((r) => r.source === 'cursor' || r.lastSuccessAt === null || Date.now() - r.lastSuccessAt.getTime() >= DAILY_AFTER_MS);
    for (const r of due) await withTenant(r.tenantId, () => ctx.app.jobs.send(aiVendorPull, { tenantId: r.tenantId, source: r.source }));
    return { enqueued: due.length };
  },
});
