/**
 * Housekeeping of the job system itself, run by schedules (see schedules.ts).
 */
import { z } from 'zod';
import { bossOver, sweepExpiredJobs } from './boss.js';
import { defineJob } from './define.js';

/** The payload of every scheduled job: which schedule and which window it runs for. */
export const ScheduledPayload = z.object({ schedule: z.string(), windowStart: z.iso.datetime() });
export type ScheduledPayload = z.infer<typeof ScheduledPayload>;

/** Shared by scheduled jobs: short expiry and one quick retry, the next window covers the rest. */
export const scheduled = { payload: ScheduledPayload, retryLimit: 1, retryDelaySeconds: 5, expireInSeconds: 300 } as const;

export const expireJobs = defineJob({
  ...scheduled,
  name: 'jobs.expire',
  summary: 'Hands jobs held past their expiry (their instance died) back to the queue as a retry, or fails them when out of retries.',
  idempotency: 'One UPDATE of jobs still active past their expiry; a second run finds none.',
  async run(ctx) {
    await sweepExpiredJobs(ctx.app.database.pool);
    return {};
  },
});

export const jobRetention = defineJob({
  ...scheduled,
  name: 'jobs.retention',
  summary: 'Archives jobs finished over an hour ago, deletes archived jobs, schedule windows and workflow checkpoints older than JOBS_RETENTION_DAYS.',
  idempotency: 'Deletes by age only; a second run deletes nothing more.',
  async run(ctx) {
    const days = ctx.app.config.jobs.retentionDays;
    const boss = bossOver(ctx.app.database.pool, { retentionDays: days });
    await boss.archive();
    // drop() (delete archived jobs past retention) is pg-boss 10 API missing from its typings.
    await (boss as unknown as { drop(): Promise<void> }).drop();
    const { pool } = ctx.app.database;
    const runs = await pool.query(`delete from schedule_runs where claimed_at < now() - make_interval(days => $1)`, [days]);
    const checkpoints = await pool.query(`delete from workflow_checkpoints where updated_at < now() - make_interval(days => $1)`, [days]);
    return { scheduleRuns: runs.rowCount ?? 0, workflowCheckpoints: checkpoints.rowCount ?? 0 };
  },
});
