import { sql } from "drizzle-orm";
import { workflowCheckpoints } from "../db/schema/index.js";
const DEFAULTS = { retryLimit: 3, retryDelaySeconds: 10, expireInSeconds: 15 * 60, tenantOf: () => null };
function defineJob(spec) {
  return { ...DEFAULTS, ...spec, kind: "task" };
}
function defineWorkflow(spec) {
  const { steps, initialState, ...rest } = spec;
  return {
    ...DEFAULTS,
    ...rest,
    kind: "workflow",
    async run(ctx, payload) {
      const { db } = ctx.app.database;
      const tenantId = (rest.tenantOf ?? DEFAULTS.tenantOf)(payload);
      const found = await db.query.workflowCheckpoints.findFirst({ where: (t, { eq }) => eq(t.jobId, ctx.job.id) });
      let state = found?.state ?? initialState;
      for (let index = found?.stepsDone ?? 0; index < steps.length; index++) {
        ctx.signal.throwIfAborted();
        const step = steps[index];
        state = await step.run(ctx, payload, state) ?? state;
        await db.insert(workflowCheckpoints).values({ jobId: ctx.job.id, workflow: ctx.job.name, tenantId, stepsDone: index + 1, state }).onConflictDoUpdate({ target: workflowCheckpoints.jobId, set: { stepsDone: index + 1, state, updatedAt: sql`now()` } });
        await ctx.progress({ step: { name: step.name, index: index + 1, count: steps.length } });
      }
      return { steps: steps.length, state };
    }
  };
}
export {
  defineJob,
  defineWorkflow
};
