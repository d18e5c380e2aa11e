/** The session review jobs: a summary and an assessment per session with a transcript, after upload or on demand. */
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { defineJob } from '../jobs/define.js';
import { assessSession, summariseSession } from './review.js';
import { findAiSettings, modelChain } from '../ai/settings.js';
import { Uuid } from '../shared/schemas.js';

export const SUMMARY_JOB = 'ai.session-summary';
export const ASSESSMENT_JOB = 'ai.session-assessment';

const Payload = z.object({
  tenantId: Uuid,
  sessionId: Uuid,
  /** A re-run on demand: replace a result older than this. */
  requestedAt: z.iso.datetime().optional(),
});
type Payload = z.infer<typeof Payload>;

const IDEMPOTENT =
  'The job first looks for a stored result (newer than requestedAt on a re-run) and then calls no model; the insert keeps the first row (ON CONFLICT), so two runs store one result. A crash between the model call and the insert repeats the call once.';

/** Both review jobs: the same payload, retries and idempotency, a different summary and step. */
const reviewJob = (name: string, summary: string, review: typeof summariseSession | typeof assessSession) =>
  defineJob<Payload>({
    name,
    summary,
    idempotency: IDEMPOTENT,
    payload: Payload,
    tenantOf: (p) => p.tenantId,
    retryLimit: 3,
    retryDelaySeconds: 30,
    run: (ctx, p) => review(ctx.app, p.tenantId, p.sessionId, p.requestedAt ? new Date(p.requestedAt) : undefined),
  });

export const sessionSummaryJob = reviewJob(SUMMARY_JOB, 'Summarises the transcript of an AI session (chunked when long) and stores it with the model used.', summariseSession);
export const sessionAssessmentJob = reviewJob(ASSESSMENT_JOB, 'Scores an AI session against the quality rubric (structured output) and stores it.', assessSession);

/**
 * After an upload with a transcript: enqueue both reviews when the tenant has a model. A failed
 * enqueue is logged, never the upload's failure (a re-run on demand recovers it).
 */
export async function enqueueSessionReview(app: AppContext, tenantId: string, sessionId: string): Promise<void> {
  try {
    const settings = await findAiSettings(app.database.db, tenantId);
    if (modelChain(app.config, settings, 'summary').length === 0) return;
    await app.jobs.send(SUMMARY_JOB, { tenantId, sessionId });
    await app.jobs.send(ASSESSMENT_JOB, { tenantId, sessionId });
  } catch (error) {
    app.log.error({ err: error, sessionId }, 'could not enqueue the review of a session');
  }
}

/** A re-run on demand of one review; resolves with the job id. */
export function requestReview(app: AppContext, kind: 'summary' | 'assessment', tenantId: string, sessionId: string): Promise<string> {
  return app.jobs.send(kind === 'summary' ? SUMMARY_JOB : ASSESSMENT_JOB, { tenantId, sessionId, requestedAt: new Date().toISOString() });
}
