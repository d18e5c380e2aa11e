import type { sessionAssessments, sessionSummaries } from '../db/schema/index.js';
import type { SessionLinks, SessionMetrics, SessionRow, TranscriptOutcome } from './service.js';
import { durationOf } from './service.js';

/** A session as the general API shows it. */
export function presentSession(row: SessionRow) {
  return {
    id: row.id,
    userId: row.userId,
    /** `upload` or `telemetry` (OTLP intake, docs/ai-telemetry.md). */
    source: row.source,
    externalId: row.externalId,
    tool: row.tool,
    model: row.model,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    durationSeconds: durationOf(row),
    projectKey: row.projectKey,
    branch: row.branch,
    prNumber: row.prNumber,
    commitShas: row.commitShas,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      cacheReadTokens: row.cacheReadTokens,
      cacheWriteTokens: row.cacheWriteTokens,
      messages: row.messageCount,
      toolCalls: row.toolCallCount,
    },
    transcript: { stored: row.transcriptKey !== null, bytes: row.transcriptBytes, lines: row.transcriptLines } as {
      stored: boolean;
      bytes: number | null;
      lines: number | null;
      reason?: string;
      content?: string | null;
    },
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCreatedSession(row: SessionRow, outcome: TranscriptOutcome) {
  const session = presentSession(row);
  if (outcome.reason) session.transcript.reason = outcome.reason;
  return session;
}

export function presentSessionDetails(row: SessionRow, links: SessionLinks, transcript?: string | null) {
  const session = presentSession(row);
  if (transcript !== undefined) session.transcript.content = transcript;
  return { ...session, links: presentLinks(links) };
}

function presentLinks(links: SessionLinks) {
  return {
    pullRequests: links.pullRequests.map(({ id, projectKey, number, title, state, linkedBy }) => ({ id, projectKey, number, title, state, linkedBy })),
    commits: links.commits.map(({ projectKey, sha, linkedBy }) => ({ projectKey, sha, linkedBy })),
  };
}

export function presentSessionMetrics(row: SessionRow, metrics: SessionMetrics, links: SessionLinks) {
  return { sessionId: row.id, ...metrics, ...presentLinks(links) };
}

export function presentSummary(row: typeof sessionSummaries.$inferSelect | undefined) {
  return row ? { text: row.text, model: row.model, createdAt: row.createdAt.toISOString() } : null;
}

export function presentAssessment(row: typeof sessionAssessments.$inferSelect | undefined) {
  if (!row) return null;
  const { taskCompleted, testsRun, reworkNeeded, riskyActions, score, rationale, model } = row;
  return { score, taskCompleted, testsRun, reworkNeeded, riskyActions, rationale, model, createdAt: row.createdAt.toISOString() };
}
