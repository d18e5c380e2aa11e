import { openDatabase } from "../db/client.js";
import { bossOver } from "./boss.js";
import { JobRunner } from "./runner.js";
import { Scheduler } from "./scheduler.js";
function createJobQueue(pool, defs) {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const overPool = bossOver(pool);
  return {
    async send(job, payload, options = {}) {
      const def = byName.get(typeof job === "string" ? job : job.name);
      if (!def) throw new Error(`unknown job ${typeof job === "string" ? job : job.name}`);
      const data = def.payload.parse(payload);
      const id = await (options.executor ? bossOver(options.executor) : overPool).send(def.name, data, options.startAfter ? { startAfter: options.startAfter } : {});
      if (!id) throw new Error(`queue ${def.name} refused the job`);
      return id;
    }
  };
}
function startJobWorker(app, options) {
  const { config, log } = app;
  const database = openDatabase(config.database.url, { max: 5, applicationName: "delivery-analytics-jobs", unscoped: "schedule" });
  const runner = new JobRunner({
    app,
    boss: bossOver(database.pool),
    executor: database.pool,
    defs: options.defs,
    instanceId: options.instanceId,
    queueConcurrency: config.jobs.queueConcurrency,
    workflowConcurrency: config.jobs.workflowConcurrency,
    pollIntervalMs: config.jobs.pollIntervalMs,
    log
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
    }
  };
}
export {
  createJobQueue,
  startJobWorker
};
