import { randomUUID } from "node:crypto";
import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import { aiSessionLinks, aiSessionShas, aiSessions, commits, projects, pullRequests } from "../db/schema/index.js";
import { authorize } from "../auth/policies.js";
import { AppError, notFound } from "../errors.js";
import { objectStoreFor, transcriptKey } from "../storage/objectStore.js";
import { linkSessions } from "./activityLinks.js";
import { parseTranscript } from "./transcripts.js";
import { enqueueSessionReview, requestReview } from "../ai/jobs.js";
import { findAiSettings, modelChain } from "../ai/settings.js";
const isUniqueViolation = (error, constraint) => {
  const e = error;
  const pgError = e.code === "23505" ? e : e.cause;
  return pgError?.code === "23505" && pgError.constraint === constraint;
};
async function createSession(app, principal, input) {
  const { db } = app.database;
  const id = randomUUID();
  const parsed = input.transcript === void 0 ? null : parseTranscript(input.transcript);
  const store = objectStoreFor(app.config.objectStore);
  let key = null;
  let outcome = { stored: false, reason: "no transcript was sent" };
  if (parsed && !store) {
    outcome = { stored: false, reason: "no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR); the session was recorded without its transcript" };
  } else if (parsed && store) {
    key = transcriptKey(principal.tenantId, id);
    await store.put(key, parsed.text, "application/x-ndjson");
    outcome = { stored: true };
  }
  const usage = input.usage ?? {};
  const derived = parsed?.derived;
  try {
    const session = await db.transaction(async (tx) => {
      const [row] = await tx.insert(aiSessions).values({
        id,
        tenantId: principal.tenantId,
        userId: principal.userId,
        externalId: input.externalId ?? null,
        tool: input.tool,
        model: input.model ?? null,
        startedAt: new Date(input.startedAt),
        endedAt: input.endedAt ? new Date(input.endedAt) : null,
        projectKey: input.projectKey ?? null,
        branch: input.branch ?? null,
        prNumber: input.prNumber ?? null,
        commitShas: [...new Set((input.commitShas ?? []).map((s) => s.toLowerCase()))],
        inputTokens: usage.inputTokens ?? derived?.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? derived?.outputTokens ?? 0,
        cacheReadTokens: usage.cacheReadTokens ?? derived?.cacheReadTokens ?? 0,
        cacheWriteTokens: usage.cacheWriteTokens ?? derived?.cacheWriteTokens ?? 0,
        messageCount: usage.messages ?? derived?.messages ?? 0,
        toolCallCount: usage.toolCalls ?? derived?.toolCalls ?? 0,
        transcriptKey: key,
        transcriptBytes: key && parsed ? parsed.text.length : null,
        transcriptLines: key && parsed ? parsed.lines : null
      }).returning();
      const shas = row.commitShas;
      if (shas.length > 0) await tx.insert(aiSessionShas).values(shas.map((sha) => ({ sessionId: id, tenantId: principal.tenantId, sha })));
      await linkSessions(tx, principal.tenantId, { sessionId: id });
      return row;
    });
    if (session.transcriptKey) await enqueueSessionReview(app, principal.tenantId, session.id);
    return { session, transcript: outcome };
  } catch (error) {
    if (key && store) {
      await store.delete(key).catch((cleanup) => app.log.error({ err: cleanup, key }, "could not remove the transcript of a session that was not recorded"));
    }
    if (isUniqueViolation(error, "ai_sessions_tenant_external")) throw new AppError("conflict", "A session with this externalId was already uploaded");
    throw error;
  }
}
async function listSessions(db, principal, filters, paging) {
  const conditions = [
    eq(aiSessions.tenantId, principal.tenantId),
    filters.userId ? eq(aiSessions.userId, filters.userId) : void 0,
    filters.projectKey ? eq(aiSessions.projectKey, filters.projectKey) : void 0,
    filters.tool ? eq(aiSessions.tool, filters.tool) : void 0,
    filters.from ? gte(aiSessions.startedAt, new Date(filters.from)) : void 0,
    filters.to ? lt(aiSessions.startedAt, new Date(filters.to)) : void 0
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(aiSessions).where(where).orderBy(desc(aiSessions.startedAt), desc(aiSessions.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(aiSessions).where(where)
  ]);
  return { rows, total: total?.n ?? 0 };
}
async function findSession(db, principal, id) {
  const [row] = await db.select().from(aiSessions).where(and(eq(aiSessions.id, id), eq(aiSessions.tenantId, principal.tenantId)));
  if (!row) throw notFound("Session");
  return row;
}
async function sessionLinks(db, session) {
  const scope = and(eq(aiSessionLinks.sessionId, session.id), eq(aiSessionLinks.tenantId, session.tenantId));
  const [prs, shas] = await Promise.all([
    db.select({ id: pullRequests.id, projectKey: projects.projectKey, number: pullRequests.number, title: pullRequests.title, state: pullRequests.state, linkedBy: aiSessionLinks.linkedBy }).from(aiSessionLinks).innerJoin(pullRequests, eq(pullRequests.id, aiSessionLinks.pullRequestId)).innerJoin(projects, eq(projects.id, pullRequests.projectId)).where(scope).orderBy(projects.projectKey, pullRequests.number),
    db.select({ id: commits.id, projectKey: projects.projectKey, sha: commits.sha, linkedBy: aiSessionLinks.linkedBy }).from(aiSessionLinks).innerJoin(commits, eq(commits.id, aiSessionLinks.commitId)).innerJoin(projects, eq(projects.id, commits.projectId)).where(scope).orderBy(commits.committedAt, commits.sha)
  ]);
  return { pullRequests: prs, commits: shas };
}
async function readTranscript(app, principal, session) {
  authorize(principal, "session.readTranscript", session);
  if (!session.transcriptKey) return null;
  const store = objectStoreFor(app.config.objectStore);
  if (!store) throw new AppError("unavailable", "Object store unavailable: no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR), so the transcript cannot be read");
  return (await store.get(session.transcriptKey)).toString("utf8");
}
async function rerunSessionReview(app, principal, kind, id) {
  const session = await findSession(app.database.db, principal, id);
  authorize(principal, "session.readTranscript", session);
  if (!session.transcriptKey) throw new AppError("conflict", "The session has no stored transcript to review");
  if (modelChain(app.config, await findAiSettings(app.database.db, principal.tenantId), "summary").length === 0) {
    throw new AppError("unavailable", "The AI features are off: no model provider is configured (Settings \u203A AI, or AI_MODELS)");
  }
  return requestReview(app, kind, principal.tenantId, session.id);
}
async function deleteSession(app, principal, id) {
  const { db } = app.database;
  const session = await findSession(db, principal, id);
  authorize(principal, "session.delete", session);
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(aiSessions).where(and(eq(aiSessions.id, session.id), eq(aiSessions.tenantId, principal.tenantId))).returning();
    if (!row) throw notFound("Session");
    if (row.transcriptKey) {
      const store = objectStoreFor(app.config.objectStore);
      if (!store) throw new AppError("unavailable", "Object store unavailable: no object store is configured, so the transcript of this session cannot be deleted");
      await store.delete(row.transcriptKey);
    }
    return row;
  });
}
async function sessionMetrics(db, principal, id) {
  const session = await findSession(db, principal, id);
  const links = await sessionLinks(db, session);
  const metrics = {
    durationSeconds: durationOf(session),
    messages: session.messageCount,
    toolCalls: session.toolCallCount,
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    cacheReadTokens: session.cacheReadTokens,
    cacheWriteTokens: session.cacheWriteTokens,
    totalTokens: session.inputTokens + session.outputTokens + session.cacheReadTokens + session.cacheWriteTokens,
    linkedCommits: links.commits.length,
    linkedPullRequests: links.pullRequests.length
  };
  return { session, metrics, links };
}
function durationOf(session) {
  return session.endedAt ? Math.round((session.endedAt.getTime() - session.startedAt.getTime()) / 1e3) : null;
}
export {
  createSession,
  deleteSession,
  durationOf,
  findSession,
  listSessions,
  readTranscript,
  rerunSessionReview,
  sessionLinks,
  sessionMetrics
};
