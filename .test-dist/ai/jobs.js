import { z } from "zod";
import { defineJob } from "../jobs/define.js";
import { assessSession, summariseSession } from "./sessionReview.js";
import { findAiSettings, modelChain } from "./settings.js";
import { Uuid } from "../shared/schemas.js";
const SUMMARY_JOB = "ai.session-summary";
const ASSESSMENT_JOB = "ai.session-assessment";
const Payload = z.object({
  tenantId: Uuid,
  sessionId: Uuid,
  /** A re-run on demand: replace a result older than this. */
  requestedAt: z.iso.datetime().optional()
});
const IDEMPOTENT = "The job first looks for a stored result (newer than requestedAt on a re-run) and then calls no model; the insert keeps the first row (ON CONFLICT), so two runs store one result. A crash between the model call and the insert repeats the call once.";
const reviewJob = (name, summary, review) => defineJob({
  name,
  summary,
  idempotency: IDEMPOTENT,
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 3,
  retryDelaySeconds: 30,
  run: (ctx, p) => review(ctx.app, p.tenantId, p.sessionId, p.requestedAt ? new Date(p.requestedAt) : void 0)
});
const sessionSummaryJob = reviewJob(SUMMARY_JOB, "Summarises the transcript of an AI session (chunked when long) and stores it with the model used.", summariseSession);
const sessionAssessmentJob = reviewJob(ASSESSMENT_JOB, "Scores an AI session against the quality rubric (structured output) and stores it.", assessSession);
async function enqueueSessionReview(app, tenantId, sessionId) {
  try {
    const settings = await findAiSettings(app.database.db, tenantId);
    if (modelChain(app.config, settings, "summary").length === 0) return;
    await app.jobs.send(SUMMARY_JOB, { tenantId, sessionId });
    await app.jobs.send(ASSESSMENT_JOB, { tenantId, sessionId });
  } catch (error) {
    app.log.error({ err: error, sessionId }, "could not enqueue the review of a session");
  }
}
function requestReview(app, kind, tenantId, sessionId) {
  return app.jobs.send(kind === "summary" ? SUMMARY_JOB : ASSESSMENT_JOB, { tenantId, sessionId, requestedAt: (/* @__PURE__ */ new Date()).toISOString() });
}
export {
  ASSESSMENT_JOB,
  SUMMARY_JOB,
  enqueueSessionReview,
  requestReview,
  sessionAssessmentJob,
  sessionSummaryJob
};
