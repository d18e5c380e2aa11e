import { AppError } from "../errors.js";
import { describeError } from "../db/errors.js";
import { asSystem, withTenant } from "../db/tenancy.js";
import { returnJobs } from "./boss.js";
class JobRunner {
  constructor(options) {
    this.options = options;
    this.workflowFree = options.workflowConcurrency;
  }
  options;
  stopping = false;
  held = /* @__PURE__ */ new Map();
  wakers = /* @__PURE__ */ new Map();
  loops = [];
  workflowFree;
  start() {
    for (const def of this.options.defs) this.loops.push(this.loop(def));
  }
  /** How many jobs this instance holds right now (for tests and logs). */
  get holding() {
    return this.held.size;
  }
  async loop(def) {
    const { boss, queueConcurrency, pollIntervalMs, log } = this.options;
    let running = 0;
    while (!this.stopping) {
      let free = queueConcurrency - running;
      if (def.kind === "workflow") free = Math.min(free, this.workflowFree);
      if (free <= 0) {
        await this.sleep(def.name, pollIntervalMs);
        continue;
      }
      if (def.kind === "workflow") this.workflowFree -= free;
      let jobs = [];
      try {
        jobs = await boss.fetch(def.name, { batchSize: free, includeMetadata: true });
      } catch (error) {
        log.warn({ err: error, queue: def.name }, "job fetch failed");
      }
      if (def.kind === "workflow") this.workflowFree += free - jobs.length;
      if (this.stopping && jobs.length > 0) {
        if (def.kind === "workflow") this.workflowFree += jobs.length;
        await returnJobs(this.options.executor, def.name, jobs.map((j) => j.id)).catch(() => {
        });
        break;
      }
      for (const job of jobs) {
        running++;
        void this.execute(def, job).finally(() => {
          running--;
          if (def.kind === "workflow") {
            this.workflowFree++;
            for (const other of this.options.defs) if (other.kind === "workflow") this.wake(other.name);
          }
          this.wake(def.name);
        });
      }
      if (jobs.length === 0 && !this.stopping) await this.sleep(def.name, pollIntervalMs);
    }
  }
  sleep(queue, ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(queue, done);
    });
  }
  wake(queue) {
    const waker = this.wakers.get(queue);
    this.wakers.delete(queue);
    waker?.();
  }
  execute(def, job) {
    const { app, boss, instanceId, log } = this.options;
    const abort = new AbortController();
    const expiry = setTimeout(() => abort.abort(new Error(`job exceeded its expiry of ${job.expireInSeconds}s`)), job.expireInSeconds * 1e3);
    const entry = { def, id: job.id, abort, done: Promise.resolve(), returned: false };
    const ref = { id: job.id, name: def.name };
    const run = async () => {
      let payload;
      let tenantId = null;
      try {
        payload = def.payload.parse(job.data);
        tenantId = def.tenantOf(payload);
        const subject = def.subjectOf?.(payload);
        const ctx = {
          app,
          job: { ...ref, retryCount: job.retryCount },
          signal: abort.signal,
          instanceId,
          progress: async (update) => {
            if (tenantId) await app.live.publish(tenantId, { kind: "job.progress", job: ref, ...subject ? { subject } : {}, ...update });
          }
        };
        const aborted = new Promise((_, reject) => abort.signal.addEventListener("abort", () => reject(abort.signal.reason), { once: true }));
        const work = () => def.run(ctx, payload);
        const output = await Promise.race([tenantId ? withTenant(tenantId, work) : asSystem("maintenance", work), aborted]);
        if (entry.returned) return;
        await boss.complete(def.name, job.id, isObject(output) ? output : void 0);
        if (tenantId) await app.live.publish(tenantId, { kind: "job.finished", job: ref, outcome: "completed" }).catch(() => {
        });
      } catch (error) {
        if (entry.returned) return;
        const message = describeError(error);
        log.warn({ queue: def.name, jobId: job.id, retryCount: job.retryCount, error: message }, "job failed");
        const known = error instanceof AppError ? { code: error.code, ...error.details ? { details: error.details } : {} } : {};
        await boss.fail(def.name, job.id, { message, ...known }).catch((e) => log.error({ err: e, jobId: job.id }, "could not mark job failed"));
        const outcome = job.retryCount < job.retryLimit ? "retrying" : "failed";
        if (tenantId) await app.live.publish(tenantId, { kind: "job.finished", job: ref, outcome, error: message }).catch(() => {
        });
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
  async drain(graceMs) {
    this.stopping = true;
    for (const queue of [...this.wakers.keys()]) this.wake(queue);
    await Promise.all(this.loops);
    const inHand = [...this.held.values()];
    let timer;
    await Promise.race([
      Promise.allSettled(inHand.map((h) => h.done)),
      new Promise((resolve) => timer = setTimeout(resolve, graceMs))
    ]);
    clearTimeout(timer);
    const left = [...this.held.values()];
    const byQueue = /* @__PURE__ */ new Map();
    for (const h of left) {
      h.returned = true;
      h.abort.abort(new Error("instance shutting down"));
      byQueue.set(h.def.name, [...byQueue.get(h.def.name) ?? [], h.id]);
    }
    let returned = 0;
    for (const [queue, ids] of byQueue) {
      returned += await returnJobs(this.options.executor, queue, ids).catch((error) => {
        this.options.log.error({ err: error, queue }, "could not return jobs to the queue; they run again after their expiry");
        return 0;
      });
    }
    return { finished: inHand.length - left.length, returned };
  }
}
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export {
  JobRunner
};
