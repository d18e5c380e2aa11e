/**
 * AI coding sessions. The transcript object is written before the row and deleted again when the
 * row cannot be written, so there is never a session row whose transcript was sent but not kept;
 * deletion removes the row and the object in one step (the row comes back if the object cannot go).
 */
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { aiSessionLinks, aiSessionShas, aiSessions, commits, projects, pullRequests, sessionAssessments, sessionSummaries, teams } from '../db/schema/index.js';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError, notFound } from '../errors.js';
import type { Paging } from '../http/route.js';
import { objectStoreFor, transcriptKey } from '../storage/objectStore.js';
import { linkSessions } from './activityLinks.js';
import { parseTranscript } from './transcripts.js';
import { enqueueSessionReview, requestReview } from './jobs.js';
import { findAiSettings, modelChain } from '../ai/settings.js';

export type SessionRow = typeof aiSessions.$inferSelect;

export interface SessionInput {
  tool: string;
  model?: string | undefined;
  startedAt: string;
  endedAt?: string | null | undefined;
  projectKey?: string | undefined;
  branch?: string | undefined;
  prNumber?: number | undefined;
  commitShas?: string[] | undefined;
  externalId?: string | undefined;
  usage?: Partial<Record<'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'messages' | 'toolCalls', number>> | undefined;
  transcript?: string | unknown[] | undefined;
}

/** What happened to the transcript of an upload: stored, or why not. */
export interface TranscriptOutcome {
  stored: boolean;
  reason?: string;
}

const isUniqueViolation = (error: unknown, constraint: string): boolean => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code === '23505' ? e : e.cause;
  return pgError?.code === '23505' && pgError.constraint === constraint;
};

export async function createSession(app: AppContext, principal: TenantPrincipal, input: SessionInput): Promise<{ session: SessionRow; transcript: TranscriptOutcome }> {
  const { db } = app.database;
  const id = randomUUID();
  const parsed = input.transcript === undefined ? null : parseTranscript(input.transcript);
  const store = objectStoreFor(app.config.objectStore);
  let key: string | null = null;
  let outcome: TranscriptOutcome = { stored: false, reason: 'no transcript was sent' };
  if (parsed && !store) {
    outcome = { stored: false, reason: 'no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR); the session was recorded without its transcript' };
  } else if (parsed && store) {
    key = transcriptKey(principal.tenantId, id);
    await store.put(key, parsed.text, 'application/x-ndjson');
    outcome = { stored: true };
  }

  const usage = input.usage ?? {};
  const derived = parsed?.derived;
  try {
    const session = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(aiSessions)
        .values({
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
          transcriptLines: key && parsed ? parsed.lines : null,
        })
        .returning();
      const shas = (row as SessionRow).commitShas;
      if (shas.length > 0) await tx.insert(aiSessionShas).values(shas.map((sha) => ({ sessionId: id, tenantId: principal.tenantId, sha })));
      await linkSessions(tx, principal.tenantId, { sessionId: id });
      return row as SessionRow;
    });
    if (session.transcriptKey) await enqueueSessionReview(app, principal.tenantId, session.id);
    return { session, transcript: outcome };
  } catch (error) {
    if (key && store) {
      await store.delete(key).catch((cleanup) => app.log.error({ err: cleanup, key }, 'could not remove the transcript of a session that was not recorded'));
    }
    if (isUniqueViolation(error, 'ai_sessions_tenant_external')) throw new AppError('conflict', 'A session with this externalId was already uploaded');
    throw error;
  }
}

export interface SessionFilters {
  userId?: string | undefined;
  projectKey?: string | undefined;
  tool?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** A team of the tenant, by slug or id. */
  team?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The team a list is filtered to, among the tenant's own teams: an unknown team, or another
 * tenant's, is named in a 404 rather than answered with an empty list (as `/api/facts` does).
 */
async function requireTeam(db: Db, tenantId: string, team: string): Promise<string> {
  const [row] = await db.select({ id: teams.id }).from(teams)
    .where(and(eq(teams.tenantId, tenantId), UUID.test(team) ? or(eq(teams.id, team.toLowerCase()), eq(teams.slug, team)) : eq(teams.slug, team)));
  if (!row) throw new AppError('not_found', `Team not found: "${team}" is no team of this organisation (teams.slug or teams.id)`, [{ path: 'query.team', message: 'No such team' }]);
  return row.id;
}

/**
 * Sessions of the tenant, newest first; `from` inclusive and `to` exclusive on `startedAt`. A team
 * keeps the sessions the `ai_sessions` cube counts for it (the session's person is a member of the
 * enabled team, matched as the cube matches them: cube_ai_sessions), so the list and the AI
 * adoption numbers of one scope are the same sessions.
 */
export async function listSessions(db: Db, principal: TenantPrincipal, filters: SessionFilters, paging: Paging): Promise<{ rows: SessionRow[]; total: number }> {
  const teamId = filters.team === undefined ? undefined : await requireTeam(db, principal.tenantId, filters.team);
  const conditions: (SQL | undefined)[] = [
    eq(aiSessions.tenantId, principal.tenantId),
    teamId ? sql`exists (select 1 from cube_ai_sessions c where c.tenant_id = ${principal.tenantId} and c.id = ${aiSessions.id} and c.team_id = ${teamId})` : undefined,
    filters.userId ? eq(aiSessions.userId, filters.userId) : undefined,
    filters.projectKey ? eq(aiSessions.projectKey, filters.projectKey) : undefined,
    filters.tool ? eq(aiSessions.tool, filters.tool) : undefined,
    filters.from ? gte(aiSessions.startedAt, new Date(filters.from)) : undefined,
    filters.to ? lt(aiSessions.startedAt, new Date(filters.to)) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(aiSessions).where(where).orderBy(desc(aiSessions.startedAt), desc(aiSessions.id))
      .limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(aiSessions).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A session of the caller's tenant; another tenant's id is "not found". */
export async function findSession(db: Db, principal: TenantPrincipal, id: string): Promise<SessionRow> {
  const [row] = await db.select().from(aiSessions).where(and(eq(aiSessions.id, id), eq(aiSessions.tenantId, principal.tenantId)));
  if (!row) throw notFound('Session');
  return row;
}

export interface SessionLinks {
  pullRequests: { id: string; projectKey: string; number: number; title: string; state: string; linkedBy: string }[];
  commits: { id: string; projectKey: string; sha: string; linkedBy: string }[];
}

export async function sessionLinks(db: Db, session: SessionRow): Promise<SessionLinks> {
  const scope = and(eq(aiSessionLinks.sessionId, session.id), eq(aiSessionLinks.tenantId, session.tenantId));
  const [prs, shas] = await Promise.all([
    db.select({ id: pullRequests.id, projectKey: projects.projectKey, number: pullRequests.number, title: pullRequests.title, state: pullRequests.state, linkedBy: aiSessionLinks.linkedBy })
      .from(aiSessionLinks).innerJoin(pullRequests, eq(pullRequests.id, aiSessionLinks.pullRequestId)).innerJoin(projects, eq(projects.id, pullRequests.projectId))
      .where(scope).orderBy(projects.projectKey, pullRequests.number),
    db.select({ id: commits.id, projectKey: projects.projectKey, sha: commits.sha, linkedBy: aiSessionLinks.linkedBy })
      .from(aiSessionLinks).innerJoin(commits, eq(commits.id, aiSessionLinks.commitId)).innerJoin(projects, eq(projects.id, commits.projectId))
      .where(scope).orderBy(commits.committedAt, commits.sha),
  ]);
  return { pullRequests: prs, commits: shas };
}

/** The transcript text; only its uploader and owners may read it. */
export async function readTranscript(app: AppContext, principal: TenantPrincipal, session: SessionRow): Promise<string | null> {
  authorize(principal, 'session.readTranscript', session);
  if (!session.transcriptKey) return null;
  const store = objectStoreFor(app.config.objectStore);
  if (!store) throw new AppError('unavailable', 'Object store unavailable: no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR), so the transcript cannot be read');
  return (await store.get(session.transcriptKey)).toString('utf8');
}

/** Re-runs a session's summary or assessment on demand: for those who may read the transcript it is made from. */
export async function rerunSessionReview(app: AppContext, principal: TenantPrincipal, kind: 'summary' | 'assessment', id: string): Promise<string> {
  const session = await findSession(app.database.db, principal, id);
  authorize(principal, 'session.readTranscript', session);
  if (!session.transcriptKey) throw new AppError('conflict', 'The session has no stored transcript to review');
  if (modelChain(app.config, await findAiSettings(app.database.db, principal.tenantId), 'summary').length === 0) {
    throw new AppError('unavailable', 'The AI features are off: no model provider is configured (Settings › AI, or AI_MODELS)');
  }
  return requestReview(app, kind, principal.tenantId, session.id);
}

/** Deletes the row and its transcript object; when the object cannot be removed the row stays (503). */
export async function deleteSession(app: AppContext, principal: TenantPrincipal, id: string): Promise<SessionRow> {
  const { db } = app.database;
  const session = await findSession(db, principal, id);
  authorize(principal, 'session.delete', session);
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(aiSessions).where(and(eq(aiSessions.id, session.id), eq(aiSessions.tenantId, principal.tenantId))).returning();
    if (!row) throw notFound('Session');
    if (row.transcriptKey) {
      const store = objectStoreFor(app.config.objectStore);
      if (!store) throw new AppError('unavailable', 'Object store unavailable: no object store is configured, so the transcript of this session cannot be deleted');
      await store.delete(row.transcriptKey);
    }
    return row;
  });
}

export interface SessionMetrics {
  durationSeconds: number | null;
  messages: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  linkedCommits: number;
  linkedPullRequests: number;
}

export async function sessionMetrics(db: Db, principal: TenantPrincipal, id: string): Promise<{ session: SessionRow; metrics: SessionMetrics; links: SessionLinks }> {
  const session = await findSession(db, principal, id);
  const links = await sessionLinks(db, session);
  const metrics: SessionMetrics = {
    durationSeconds: durationOf(session),
    messages: session.messageCount,
    toolCalls: session.toolCallCount,
    inputTokens: session.inputTokens,
    outputTokens: session.outputTokens,
    cacheReadTokens: session.cacheReadTokens,
    cacheWriteTokens: session.cacheWriteTokens,
    totalTokens: session.inputTokens + session.outputTokens + session.cacheReadTokens + session.cacheWriteTokens,
    linkedCommits: links.commits.length,
    linkedPullRequests: links.pullRequests.length,
  };
  return { session, metrics, links };
}

export function durationOf(session: SessionRow): number | null {
  return session.endedAt ? Math.round((session.endedAt.getTime() - session.startedAt.getTime()) / 1000) : null;
}

/** The stored review of a session, for its detail view. */
export async function sessionReview(app: AppContext, tenantId: string, sessionId: string) {
  const { db } = app.database;
  const [[summary], [assessment]] = await Promise.all([
    db.select().from(sessionSummaries).where(and(eq(sessionSummaries.sessionId, sessionId), eq(sessionSummaries.tenantId, tenantId))),
    db.select().from(sessionAssessments).where(and(eq(sessionAssessments.sessionId, sessionId), eq(sessionAssessments.tenantId, tenantId))),
  ]);
  return { summary, assessment };
}
