/**
 * The worker of one instance: one fetch loop per queue over pg-boss's SKIP LOCKED claim, so a job
 * is held by exactly one instance at a time. A loop asks for as many jobs as it has free slots
 * (JOBS_QUEUE_CONCURRENCY per queue; workflows also share JOBS_WORKFLOW_CONCURRENCY slots across
 * their queues), runs them, marks them completed or failed, and asks again at once while it finds
 * jobs or a slot frees up. An empty queue's loop waits for the poller: every JOBS_POLL_INTERVAL_MS
 * one query names the queues that have a job ready (queuesWithWork) and wakes their loops. An idle
 * instance so asks once per interval, not once per queue (24 queries a second before: 12 ms of
 * the server's CPU and 17 ms of PostgreSQL's a second, idle). The loops start asleep and the
 * poller asks at once: a starting instance fetches only the queues that have work, not every
 * queue (each fetch is a partition PostgreSQL plans and, on a new connection, first reads the
 * catalog of; docs/benchmarks/2026-11-29-pg-planning.md).
 *
 * Draining: `drain(grace)` stops every loop from claiming, waits up to the grace period for the
 * jobs in hand, then puts the unfinished ones back in the queue unchanged (no retry used up) and
 * aborts their signals. A job whose instance dies without draining stays `active` until its
 * expiry; the `jobs.expire` schedule then hands it to another instance (a retry).
 */
import type PgBoss from 'pg-boss';
import type { AppContext } from '../context.js';
import type { Logger } from '../log.js';
import { AppError } from '../errors.js';
import { describeError } from '../db/errors.js';
import { asSystem, withTenant } from '../db/tenancy.js';
import { queuesWithWork, returnJobs, type Executor, type PreparingExecutor } from './boss.js';
import type { JobContext, JobDefinition } from './define.js';

export interface RunnerOptions {
  app: AppContext;
  boss: PgBoss;
  /** A pool: the poller's question is a named statement (boss.ts, queuesWithWork). */
  executor: Executor & PreparingExecutor;
  defs: readonly JobDefinition[];
  instanceId: string;
  queueConcurrency: number;
  workflowConcurrency: number;
  pollIntervalMs: number;
  log: Logger;
}

/** The poller's own key in `wakers`: the drain wakes it with the loops. */
const POLLER = '\0poller';

interface Held {
  def: JobDefinition;
  id: string;
  abort: AbortController;
  done: Promise<void>;
  returned: boolean;
}

export class JobRunner {
  private stopping = false;
  private readonly held = new Map<string, Held>();
  private readonly wakers = new Map<string, () => void>();
  private readonly loops: Promise<void>[] = [];
  private workflowFree: number;

  constructor(private readonly options: RunnerOptions) {
    this.workflowFree = options.workflowConcurrency;
  }

  start(): void {
    for (const def of this.options.defs) this.loops.push(this.loop(def));
    this.loops.push(this.poll());
  }

  /** Every poll interval: wakes the loops of the queues that have a job ready. */
  private async poll(): Promise<void> {
    const { executor, defs, pollIntervalMs, log } = this.options;
    const names = defs.map((d) => d.name);
    for (let first = true; !this.stopping; first = false) {
      if (!first) await this.sleep(POLLER, pollIntervalMs);
      if (this.stopping) break;
      let ready: Iterable<string>;
      try {
        ready = await queuesWithWork(executor, names);
      } catch (error) {
        // Each loop's own fetch then meets (and logs) what went wrong, as it did before the poller.
        log.warn({ err: error }, 'job poll failed');
        ready = names;
      }
      for (const name of ready) this.wake(name);
    }
  }

  /** How many jobs this instance holds right now (for tests and logs). */
  get holding(): number {
    return this.held.size;
  }

  private async loop(def: JobDefinition): Promise<void> {
    const { boss, queueConcurrency, pollIntervalMs, log } = this.options;
    let running = 0;
    // Until the poller's first question (asked as the runner starts) finds a job for this queue.
    await this.sleep(def.name, null);
    while (!this.stopping) {
      let free = queueConcurrency - running;
      if (def.kind === 'workflow') free = Math.min(free, this.workflowFree);
      if (free <= 0) {
        await this.sleep(def.name, pollIntervalMs);
        continue;
      }
      // Reserve the workflow slots before the await, so two workflow queues cannot both claim them.
      if (def.kind === 'workflow') this.workflowFree -= free;
      let jobs: PgBoss.JobWithMetadata[] = [];
      try {
        jobs = await boss.fetch(def.name, { batchSize: free, includeMetadata: true });
      } catch (error) {
        log.warn({ err: error, queue: def.name }, 'job fetch failed');
      }
      if (def.kind === 'workflow') this.workflowFree += free - jobs.length;
      if (this.stopping && jobs.length > 0) {
        // Claimed while the drain began: hand them straight back.
        if (def.kind === 'workflow') this.workflowFree += jobs.length;
        await returnJobs(this.options.executor, def.name, jobs.map((j) => j.id)).catch(() => {});
        break;
      }
      for (const job of jobs) {
        running++;
        void this.execute(def, job).finally(() => {
          running--;
          if (def.kind === 'workflow') {
            this.workflowFree++;
            for (const other of this.options.defs) if (other.kind === 'workflow') this.wake(other.name);
          }
          this.wake(def.name);
        });
      }
      // Empty: until the poller finds a job for this queue (or a slot frees up, or the drain).
      if (jobs.length === 0 && !this.stopping) await this.sleep(def.name, null);
    }
  }

  /** Until `wake(queue)`, or `ms` at most (null: no limit). */
  private sleep(queue: string, ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(queue, done);
    });
  }

  private wake(queue: string): void {
    const waker = this.wakers.get(queue);
    this.wakers.delete(queue);
    waker?.();
  }

  private execute(def: JobDefinition, job: PgBoss.JobWithMetadata): Promise<void> {
    const { app, boss, instanceId, log } = this.options;
    const abort = new AbortController();
    const expiry = setTimeout(() => abort.abort(new Error(`job exceeded its expiry of ${job.expireInSeconds}s`)), job.expireInSeconds * 1000);
    const entry: Held = { def, id: job.id, abort, done: Promise.resolve(), returned: false };
    const ref = { id: job.id, name: def.name };

    const run = async () => {
      let payload: unknown;
      let tenantId: string | null = null;
      try {
        payload = def.payload.parse(job.data);
        tenantId = def.tenantOf(payload);
        const subject = def.subjectOf?.(payload);
        const ctx: JobContext = {
          app,
          job: { ...ref, retryCount: job.retryCount },
          signal: abort.signal,
          instanceId,
          progress: async (update) => {
            if (tenantId) await app.live.publish(tenantId, { kind: 'job.progress', job: ref, ...(subject ? { subject } : {}), ...update });
          },
        };
        const aborted = new Promise<never>((_, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }));
        // The job's database work is its tenant's; a job without one is maintenance across tenants.
        const work = () => def.run(ctx, payload);
        const output = await Promise.race([tenantId ? withTenant(tenantId, work) : asSystem('maintenance', work), aborted]);
        if (entry.returned) return;
        await boss.complete(def.name, job.id, isObject(output) ? output : undefined);
        if (tenantId) await app.live.publish(tenantId, { kind: 'job.finished', job: ref, outcome: 'completed' }).catch(() => {});
      } catch (error) {
        if (entry.returned) return;
        // Never the query's values: a failed import's parameters are its rows (src/db/errors.ts).
        const message = describeError(error);
        log.warn({ queue: def.name, jobId: job.id, retryCount: job.retryCount, error: message }, 'job failed');
        // An AppError's code and field details go along: they are ours and safe to show (e.g. why each model failed).
        const known = error instanceof AppError ? { code: error.code, ...(error.details ? { details: error.details } : {}) } : {};
        await boss.fail(def.name, job.id, { message, ...known }).catch((e) => log.error({ err: e, jobId: job.id }, 'could not mark job failed'));
        const outcome = job.retryCount < job.retryLimit ? 'retrying' : 'failed';
        if (tenantId) await app.live.publish(tenantId, { kind: 'job.finished', job: ref, outcome, error: message }).catch(() => {});
      } finally {
        clearTimeout(expiry);
        this.held.delete(job.id);
      }
    };
    this.held.set(job.id, entry);
    entry.done = run();
    return entry.done;
  }

  /**
   * Stops claiming, waits up to `graceMs` for held jobs, returns the rest to the queue. Resolves
   * with how many jobs finished during the drain and how many went back.
   */
  async drain(graceMs: number): Promise<{ finished: number; returned: number }> {
    this.stopping = true;
    for (const queue of [...this.wakers.keys()]) this.wake(queue);
    await Promise.all(this.loops);
    const inHand = [...this.held.values()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inHand.map((h) => h.done)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    const left = [...this.held.values()];
    const byQueue = new Map<string, string[]>();
    for (const h of left) {
      h.returned = true;
      h.abort.abort(new Error('instance shutting down'));
      byQueue.set(h.def.name, [...(byQueue.get(h.def.name) ?? []), h.id]);
    }
    let returned = 0;
    for (const [queue, ids] of byQueue) {
      returned += await returnJobs(this.options.executor, queue, ids).catch((error) => {
        this.options.log.error({ err: error, queue }, 'could not return jobs to the queue; they run again after their expiry');
        return 0;
      });
    }
    return { finished: inHand.length - left.length, returned };
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
