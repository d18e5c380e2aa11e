import { durationOf } from "./service.js";
function presentSession(row) {
  return {
    id: row.id,
    userId: row.userId,
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
      toolCalls: row.toolCallCount
    },
    transcript: { stored: row.transcriptKey !== null, bytes: row.transcriptBytes, lines: row.transcriptLines },
    createdAt: row.createdAt.toISOString()
  };
}
function presentCreatedSession(row, outcome) {
  const session = presentSession(row);
  if (outcome.reason) session.transcript.reason = outcome.reason;
  return session;
}
function presentSessionDetails(row, links, transcript) {
  const session = presentSession(row);
  if (transcript !== void 0) session.transcript.content = transcript;
  return { ...session, links: presentLinks(links) };
}
function presentLinks(links) {
  return {
    pullRequests: links.pullRequests.map(({ id, projectKey, number, title, state, linkedBy }) => ({ id, projectKey, number, title, state, linkedBy })),
    commits: links.commits.map(({ projectKey, sha, linkedBy }) => ({ projectKey, sha, linkedBy }))
  };
}
function presentSessionMetrics(row, metrics, links) {
  return { sessionId: row.id, ...metrics, ...presentLinks(links) };
}
export {
  presentCreatedSession,
  presentSession,
  presentSessionDetails,
  presentSessionMetrics
};
