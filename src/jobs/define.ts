/**
 * Jobs as data. A job definition names its queue, how its payload is validated, how often it is
 * retried and how long one run may hold it, how a second run of the same job has no second
 * effect (`idempotency`, shown in docs/jobs.md), and what it does.
 *
 * Two kinds share one catalog:
 * - a **task** is one unit of work; each instance runs up to JOBS_QUEUE_CONCURRENCY per queue;
 * - a **workflow** is a multi-step job (a register import, a backfill): ordered, named steps with
 *   a checkpoint after each, so a retry resumes at the first unfinished step. Each instance runs
 *   up to JOBS_WORKFLOW_CONCURRENCY workflows at once, across all workflow queues together (and
 *   never more than JOBS_QUEUE_CONCURRENCY of one queue).
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { workflowCheckpoints } from '../db/schema/index.js';
import type { JobRef, LiveEvent, LiveSubject } from '../live/events.js';

export interface JobContext {
  app: AppContext;
  job: JobRef & { retryCount: number };
  /** Aborted when the job's expiry passes or the instance drains past its grace period. */
  signal: AbortSignal;
  /** The instance running the job (`host:pid:random`). */
  instanceId: string;
  /** Publishes a `job.progress` event to the job's tenant; a no-op for jobs without a tenant. */
  progress(update: Omit<Extract<LiveEvent, { kind: 'job.progress' }>, 'kind' | 'job'>): Promise<void>;
}

export interface JobDefinition<P = any> {
  name: string;
  kind: 'task' | 'workflow';
  summary: string;
  /** Why running the job twice (a retry after a crash) has the effect of running it once. */
  idempotency: string;
  payload: z.ZodType<P>;
  /** The tenant whose clients see this job's progress; null for maintenance work. */
  tenantOf(payload: P): string | null;
  subjectOf?(payload: P): LiveSubject | undefined;
  retryLimit: number;
  retryDelaySeconds: number;
  /** How long one run may hold the job; after that another instance may take it. */
  expireInSeconds: number;
  run(ctx: JobContext, payload: P): Promise<unknown>;
}

type Defaults = 'kind' | 'tenantOf' | 'retryLimit' | 'retryDelaySeconds' | 'expireInSeconds';
export type JobSpec<P> = Omit<JobDefinition<P>, Defaults> & Partial<Pick<JobDefinition<P>, Exclude<Defaults, 'kind'>>>;

const DEFAULTS = { retryLimit: 3, retryDelaySeconds: 10, expireInSeconds: 15 * 60, tenantOf: () => null };

export function defineJob<P>(spec: JobSpec<P>): JobDefinition<P> {
  return { ...DEFAULTS, ...spec, kind: 'task' };
}

export interface WorkflowStep<P, S> {
  name: string;
  /** Receives the state the previous steps handed on; returns the state for the next ones. */
  run(ctx: JobContext, payload: P, state: S): Promise<S | void>;
}

export interface WorkflowSpec<P, S> extends Omit<JobSpec<P>, 'run'> {
  initialState: S;
  steps: WorkflowStep<P, S>[];
}

/** A multi-step job whose progress survives a crash: see the module comment. */
export function defineWorkflow<P, S extends Record<string, unknown>>(spec: WorkflowSpec<P, S>): JobDefinition<P> {
  const { steps, initialState, ...rest } = spec;
  return {
    ...DEFAULTS,
    ...rest,
    kind: 'workflow',
    async run(ctx, payload) {
      const { db } = ctx.app.database;
      const tenantId = (rest.tenantOf ?? DEFAULTS.tenantOf)(payload);
      const found = await db.query.workflowCheckpoints.findFirst({ where: (t, { eq }) => eq(t.jobId, ctx.job.id) });
      let state = (found?.state as S | undefined) ?? initialState;
      for (let index = found?.stepsDone ?? 0; index < steps.length; index++) {
        ctx.signal.throwIfAborted();
        const step = steps[index] as WorkflowStep<P, S>;
        state = (await step.run(ctx, payload, state)) ?? state;
        await db
          .insert(workflowCheckpoints)
          .values({ jobId: ctx.job.id, workflow: ctx.job.name, tenantId, stepsDone: index + 1, state })
          .onConflictDoUpdate({ target: workflowCheckpoints.jobId, set: { stepsDone: index + 1, state, updatedAt: sql`now()` } });
        await ctx.progress({ step: { name: step.name, index: index + 1, count: steps.length } });
      }
      return { steps: steps.length, state };
    },
  };
}
