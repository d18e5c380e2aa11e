/**
 * The job system's two faces: `createJobQueue` (enqueue from anywhere: a route, a CLI command, a
 * job) and `startJobWorker` (this instance's worker loop and scheduler, started by `serve` unless
 * JOBS_WORKER_ENABLED=false).
 */
import type pg from 'pg';
import type { AppContext } from '../context.js';
import { openDatabase } from '../db/client.js';
import { bossOver, type Executor } from './boss.js';
import type { JobDefinition } from './define.js';
import { JobRunner } from './runner.js';
import { Scheduler, type ScheduleDefinition } from './scheduler.js';

export interface SendOptions {
  /** Not before this time. */
  startAfter?: Date;
  /** A client inside a transaction: the job exists only if that transaction commits. */
  executor?: Executor;
}

export interface JobQueue {
  /** Validates the payload against the job's schema and enqueues it; resolves with the job id. */
  send<P>(job: JobDefinition<P> | string, payload: P, options?: SendOptions): Promise<string>;
}

export function createJobQueue(pool: pg.Pool, defs: readonly JobDefinition[]): JobQueue {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const overPool = bossOver(pool);
  return {
    async send(job, payload, options = {}) {
      const def = byName.get(typeof job === 'string' ? job : job.name);
      if (!def) throw new Error(`unknown job ${typeof job === 'string' ? job : job.name}`);
      const data = def.payload.parse(payload) as object;
      const id = await (options.executor ? bossOver(options.executor) : overPool).send(def.name, data, options.startAfter ? { startAfter: options.startAfter } : {});
      if (!id) throw new Error(`queue ${def.name} refused the job`);
      return id;
    },
  };
}

export interface JobWorker {
  runner: JobRunner;
  scheduler: Scheduler;
  /** Stops the scheduler, drains the runner within `graceMs`, closes the worker's pool. */
  drain(graceMs: number): Promise<{ finished: number; returned: number }>;
}

export function startJobWorker(
  app: AppContext,
  options: { instanceId: string; defs: readonly JobDefinition[]; schedules: readonly ScheduleDefinition[] },
): JobWorker {
  const { config, log } = app;
  // Claims, completions and schedule windows use a small pool of their own, so a burst of jobs
  // never takes the connections HTTP requests need (handlers use the app's pool).
  const database = openDatabase(config.database.url, { max: 5, applicationName: 'delivery-analytics-jobs', unscoped: 'schedule' });
  const runner = new JobRunner({
    app,
    boss: bossOver(database.pool),
    executor: database.pool,
    defs: options.defs,
    instanceId: options.instanceId,
    queueConcurrency: config.jobs.queueConcurrency,
    workflowConcurrency: config.jobs.workflowConcurrency,
    pollIntervalMs: config.jobs.pollIntervalMs,
    log,
  });
  const scheduler = new Scheduler({ pool: database.pool, schedules: options.schedules, instanceId: options.instanceId, log });
  runner.start();
  scheduler.start();
  return {
    runner,
    scheduler,
    async drain(graceMs) {
      await scheduler.stop();
      try {
        return await runner.drain(graceMs);
      } finally {
        await database.close();
      }
    },
  };
}
