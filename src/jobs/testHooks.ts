/**
 * Test-only job kinds, schedule and route, switched on by TEST_HOOKS=true. The configuration
 * refuses TEST_HOOKS unless NODE_ENV=test (src/config/runtime.ts), so none of this can run in production.
 *
 * - `test.effect` records one attempt per run in `test_job_attempts` and its effect once per key
 *   in `test_job_effects` (tables the test creates itself): the effect is idempotent by its key,
 *   the attempts show which instance claimed what.
 * - `test.tick` is run by a per-second schedule of the same name, with the window as its key.
 * - `POST /api/test/live` (testRoutes.ts) publishes a `test.ping` event to the caller's tenant, so
 *   a test can raise an event on one chosen instance.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { defineJob, type JobContext } from './define.js';
import { ScheduledPayload } from './maintenance.js';
import type { ScheduleDefinition } from './scheduler.js';

async function recordEffect(ctx: JobContext, key: string, sleepMs: number): Promise<void> {
  const { pool } = ctx.app.database;
  await pool.query('insert into test_job_attempts (key, instance, job_id) values ($1, $2, $3)', [key, ctx.instanceId, ctx.job.id]);
  // Honours the job's signal like every long handler should: a drain past its grace aborts it.
  if (sleepMs > 0) await delay(sleepMs, undefined, { signal: ctx.signal });
  await pool.query('insert into test_job_effects (key, instance, job_id) values ($1, $2, $3) on conflict (key) do nothing', [key, ctx.instanceId, ctx.job.id]);
}

export const testEffect = defineJob({
  name: 'test.effect',
  summary: 'Test only: records an attempt, waits sleepMs, records its effect once per key.',
  idempotency: 'The effect row is keyed by the payload key (insert … on conflict do nothing).',
  payload: z.object({ key: z.string().min(1).max(200), sleepMs: z.number().int().min(0).max(60_000).default(0) }),
  retryLimit: 5,
  retryDelaySeconds: 0,
  expireInSeconds: 5,
  run: (ctx, payload) => recordEffect(ctx, payload.key, payload.sleepMs).then(() => ({})),
});

export const testTick = defineJob({
  name: 'test.tick',
  summary: 'Test only: the job of the per-second test schedule; its effect is keyed by the window.',
  idempotency: 'The effect row is keyed by the window start.',
  payload: ScheduledPayload,
  retryLimit: 5,
  retryDelaySeconds: 0,
  expireInSeconds: 3,
  run: (ctx, payload) => recordEffect(ctx, `tick:${payload.windowStart}`, 0).then(() => ({})),
});

export const testJobs = [testEffect, testTick];

export const testSchedules: ScheduleDefinition[] = [
  { name: 'test.tick', job: 'test.tick', everySeconds: 1, summary: 'Test only: every second.' },
];
