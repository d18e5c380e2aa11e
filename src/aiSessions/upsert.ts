/**
 * The capture hook's idempotent upload (docs/ai-capture.md, docs/api.md "Sessions"): a session is
 * named by the tool's own id (externalId, unique in the tenant), and every run of the hook sends
 * the whole session again. The first run creates it; a later run of the same uploader replaces its
 * metadata, links and (when one is sent) its transcript. Another user's session with that id is a
 * conflict and is left untouched, transcript included; another tenant's is not even seen (the
 * externalId is unique per tenant, so that tenant's run creates a session of its own).
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { aiSessionLinks, aiSessions, aiSessionShas } from '../db/schema/index.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import { objectStoreFor, transcriptKey } from '../storage/objectStore.js';
import { enqueueSessionReview } from './jobs.js';
import { linkSessions } from './activityLinks.js';
import { createSession, type SessionInput, type SessionRow, type TranscriptOutcome } from './service.js';
import { parseTranscript } from './transcripts.js';

const NOT_YOURS = 'A session with this externalId was uploaded by another user';

async function findByExternalId(app: AppContext, tenantId: string, externalId: string): Promise<SessionRow | null> {
  const [row] = await app.database.db.select().from(aiSessions).where(and(eq(aiSessions.tenantId, tenantId), eq(aiSessions.externalId, externalId)));
  return row ?? null;
}

/**
 * Creates the caller's session with this externalId, or replaces it: `created` says which. The
 * race of two first runs is settled by the unique index: the loser replaces the winner's row.
 */
export async function upsertSessionByExternalId(
  app: AppContext,
  principal: TenantPrincipal,
  externalId: string,
  input: Omit<SessionInput, 'externalId'>,
): Promise<{ session: SessionRow; transcript: TranscriptOutcome; created: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const existing = await findByExternalId(app, principal.tenantId, externalId);
    if (existing) {
      if (existing.userId !== principal.userId) throw new AppError('conflict', NOT_YOURS);
      return { ...(await replaceSession(app, principal, existing, input)), created: false };
    }
    try {
      return { ...(await createSession(app, principal, { ...input, externalId })), created: true };
    } catch (error) {
      if (attempt === 1 && error instanceof AppError && error.code === 'conflict') continue;
      throw error;
    }
  }
}

/**
 * Replaces every metadata field with what was sent (as a first upload would set it); the transcript
 * object is overwritten when one is sent and kept otherwise, with the counts derived from it.
 */
async function replaceSession(app: AppContext, principal: TenantPrincipal, existing: SessionRow, input: Omit<SessionInput, 'externalId'>): Promise<{ session: SessionRow; transcript: TranscriptOutcome }> {
  const { db } = app.database;
  const parsed = input.transcript === undefined ? null : parseTranscript(input.transcript);
  const store = objectStoreFor(app.config.objectStore);
  let key = existing.transcriptKey;
  let outcome: TranscriptOutcome = existing.transcriptKey ? { stored: true, reason: 'no transcript was sent; the stored one is kept' } : { stored: false, reason: 'no transcript was sent' };
  let newObject = false;
  if (parsed && !store) {
    outcome = { stored: false, reason: 'no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR); the session was recorded without its transcript' };
  } else if (parsed && store) {
    newObject = key === null;
    key ??= transcriptKey(principal.tenantId, existing.id);
    await store.put(key, parsed.text, 'application/x-ndjson');
    outcome = { stored: true };
  }
  const usage = input.usage ?? {};
  const derived = parsed?.derived;
  const keptBytes = parsed && key ? parsed.text.length : existing.transcriptBytes;
  const keptLines = parsed && key ? parsed.lines : existing.transcriptLines;
  const shas = [...new Set((input.commitShas ?? []).map((s) => s.toLowerCase()))];
  try {
    const session = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(aiSessions)
        .set({
          tool: input.tool,
          model: input.model ?? null,
          startedAt: new Date(input.startedAt),
          endedAt: input.endedAt ? new Date(input.endedAt) : null,
          projectKey: input.projectKey ?? null,
          branch: input.branch ?? null,
          prNumber: input.prNumber ?? null,
          commitShas: shas,
          inputTokens: usage.inputTokens ?? derived?.inputTokens ?? 0,
          outputTokens: usage.outputTokens ?? derived?.outputTokens ?? 0,
          cacheReadTokens: usage.cacheReadTokens ?? derived?.cacheReadTokens ?? 0,
          cacheWriteTokens: usage.cacheWriteTokens ?? derived?.cacheWriteTokens ?? 0,
          messageCount: usage.messages ?? derived?.messages ?? 0,
          toolCallCount: usage.toolCalls ?? derived?.toolCalls ?? 0,
          transcriptKey: key,
          transcriptBytes: key ? keptBytes : null,
          transcriptLines: key ? keptLines : null,
        })
        .where(and(eq(aiSessions.id, existing.id), eq(aiSessions.tenantId, principal.tenantId), eq(aiSessions.userId, principal.userId)))
        .returning();
      if (!row) throw new AppError('conflict', NOT_YOURS);
      // Links follow what the session names now: the old ones go, linking runs again.
      await tx.delete(aiSessionShas).where(and(eq(aiSessionShas.sessionId, existing.id), eq(aiSessionShas.tenantId, principal.tenantId)));
      await tx.delete(aiSessionLinks).where(and(eq(aiSessionLinks.sessionId, existing.id), eq(aiSessionLinks.tenantId, principal.tenantId)));
      if (shas.length > 0) await tx.insert(aiSessionShas).values(shas.map((sha) => ({ sessionId: existing.id, tenantId: principal.tenantId, sha })));
      await linkSessions(tx, principal.tenantId, { sessionId: existing.id });
      return row;
    });
    // Reviewed once, when its first transcript arrives; a re-run on demand reviews a longer one.
    if (newObject && session.transcriptKey) await enqueueSessionReview(app, principal.tenantId, session.id);
    return { session, transcript: outcome };
  } catch (error) {
    if (newObject && key && store) await store.delete(key).catch((cleanup) => app.log.error({ err: cleanup, key }, 'could not remove the transcript of a session that was not updated'));
    throw error;
  }
}
