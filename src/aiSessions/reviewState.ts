/**
 * Where a session's review stands, for the sessions list and a session's page: a failed summary or
 * assessment is read from its job (pg-boss keeps the failure's output: our error code and, when no
 * model answered, why each model failed), so no column is needed and a re-run that succeeds
 * replaces the failure by its result.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { sessionAssessments, users } from '../db/schema/index.js';
import { asSystem } from '../db/tenancy.js';
import type { ErrorDetail } from '../errors.js';
import { ASSESSMENT_JOB, SUMMARY_JOB } from './jobs.js';
import type { SessionRow } from './service.js';

export interface ReviewFailure {
  failedAt: string;
  /** pg-boss will try again (the job has retries left); false once it gave up. */
  retrying: boolean;
  /** Safe to show: model names and our words for what went wrong, never a provider's message. */
  reason: string;
}

export type ReviewKind = 'summary' | 'assessment';
export type ReviewFailures = Map<string, Partial<Record<ReviewKind, ReviewFailure>>>;

/** Codes whose messages are ours and carry no secret (budget spent, no model configured). */
const SAFE_CODES = new Set(['rate_limited', 'unavailable']);

function reasonOf(output: { message?: string; code?: string; details?: ErrorDetail[] } | null): string {
  if (output?.details?.length) return `No model answered: ${output.details.map((d) => `${d.path}: ${d.message}`).join('; ')}`;
  if (output?.code && SAFE_CODES.has(output.code) && output.message) return output.message;
  return 'An unexpected error (the server log has the details)';
}

/** The latest review job of each session and kind, when it failed (and may be retrying). */
export async function reviewFailures(app: AppContext, tenantId: string, sessionIds: string[]): Promise<ReviewFailures> {
  const found: ReviewFailures = new Map();
  if (sessionIds.length === 0) return found;
  // The job queue holds every tenant's jobs and is not readable as a tenant: the payload's tenant is the check.
  const { rows } = await asSystem('schedule', () =>
    app.database.pool.query<{ name: string; session_id: string; state: string; output: Parameters<typeof reasonOf>[0]; at: Date }>(
      `select distinct on (name, session_id) name, session_id, state, output, at from (
         select name, data->>'sessionId' as session_id, state::text, output, coalesce(completed_on, created_on) as at, created_on
           from pgboss.job where name = any($1) and data->>'tenantId' = $2 and data->>'sessionId' = any($3)
         union all
         select name, data->>'sessionId', state::text, output, coalesce(completed_on, created_on), created_on
           from pgboss.archive where name = any($1) and data->>'tenantId' = $2 and data->>'sessionId' = any($3)
       ) jobs order by name, session_id, created_on desc`,
      [[SUMMARY_JOB, ASSESSMENT_JOB], tenantId, sessionIds],
    ),
  );
  for (const row of rows) {
    if (row.state !== 'failed' && row.state !== 'retry') continue;
    const kind: ReviewKind = row.name === SUMMARY_JOB ? 'summary' : 'assessment';
    const entry = found.get(row.session_id) ?? {};
    entry[kind] = { failedAt: row.at.toISOString(), retrying: row.state === 'retry', reason: reasonOf(row.output) };
    found.set(row.session_id, entry);
  }
  return found;
}

export type ReviewStateName = 'no_transcript' | 'pending' | 'assessed' | 'failed';

/**
 * The list's view of each session: who uploaded it, its review's state and score. "failed" is a
 * session with no assessment whose summary or assessment job failed.
 */
export async function sessionListExtras(app: AppContext, tenantId: string, rows: SessionRow[]) {
  const { db } = app.database;
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const [assessed, failures, people] = await Promise.all([
    ids.length ? db.select({ sessionId: sessionAssessments.sessionId, score: sessionAssessments.score }).from(sessionAssessments).where(and(eq(sessionAssessments.tenantId, tenantId), inArray(sessionAssessments.sessionId, ids))) : [],
    reviewFailures(app, tenantId, ids),
    // Users are not tenant rows; these are the uploaders of this tenant's sessions.
    userIds.length ? asSystem('tenant-directory', () => db.select({ id: users.id, email: users.email, displayName: users.displayName }).from(users).where(inArray(users.id, userIds))) : [],
  ]);
  const scores = new Map(assessed.map((a) => [a.sessionId, a.score]));
  const names = new Map(people.map((p) => [p.id, p.displayName ?? p.email]));
  return (row: SessionRow) => {
    const score = scores.get(row.id) ?? null;
    const failed = failures.get(row.id);
    const state: ReviewStateName = !row.transcriptKey ? 'no_transcript' : score !== null ? 'assessed' : failed ? 'failed' : 'pending';
    // A telemetry session has no uploader: the tool named a person by e-mail.
    const uploader = row.userId ? { id: row.userId, name: names.get(row.userId) ?? null } : { id: null, name: row.personEmail };
    return { uploader, review: { state, score } };
  };
}
