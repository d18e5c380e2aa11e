import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { defineJob } from "./define.js";
import { ScheduledPayload } from "./maintenance.js";
async function recordEffect(ctx, key, sleepMs) {
  const { pool } = ctx.app.database;
  await pool.query("insert into test_job_attempts (key, instance, job_id) values ($1, $2, $3)", [key, ctx.instanceId, ctx.job.id]);
  if (sleepMs > 0) await delay(sleepMs, void 0, { signal: ctx.signal });
  await pool.query("insert into test_job_effects (key, instance, job_id) values ($1, $2, $3) on conflict (key) do nothing", [key, ctx.instanceId, ctx.job.id]);
}
const testEffect = defineJob({
  name: "test.effect",
  summary: "Test only: records an attempt, waits sleepMs, records its effect once per key.",
  idempotency: "The effect row is keyed by the payload key (insert \u2026 on conflict do nothing).",
  payload: z.object({ key: z.string().min(1).max(200), sleepMs: z.number().int().min(0).max(6e4).default(0) }),
  retryLimit: 5,
  retryDelaySeconds: 0,
  expireInSeconds: 5,
  run: (ctx, payload) => recordEffect(ctx, payload.key, payload.sleepMs).then(() => ({}))
});
const testTick = defineJob({
  name: "test.tick",
  summary: "Test only: the job of the per-second test schedule; its effect is keyed by the window.",
  idempotency: "The effect row is keyed by the window start.",
  payload: ScheduledPayload,
  retryLimit: 5,
  retryDelaySeconds: 0,
  expireInSeconds: 3,
  run: (ctx, payload) => recordEffect(ctx, `tick:${payload.windowStart}`, 0).then(() => ({}))
});
const testJobs = [testEffect, testTick];
const testSchedules = [
  { name: "test.tick", job: "test.tick", everySeconds: 1, summary: "Test only: every second." }
];
export {
  testEffect,
  testJobs,
  testSchedules,
  testTick
};
