/** The AI routes: Settings › AI, re-running a session's summary or assessment, and the notebooks (notebook/routes.ts). */
import Router from '@koa/router';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { authorize } from '../auth/policies.js';
import type { AppContext } from '../context.js';
import { sessionAssessments, sessionSummaries } from '../db/schema/index.js';
import { route } from '../http/route.js';
import { findSession } from '../aiSessions/service.js';
import { requestReview } from './jobs.js';
import { presentAiSettings } from './presenters.js';
import { AiSettingsBody, findAiSettings, modelChain, saveAiSettings } from './settings.js';
import { AppError } from '../errors.js';
import { notebookRoutes } from './notebook/routes.js';
import { Uuid } from '../shared/schemas.js';

const SessionParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });

/** The stored review of a session, for its detail view. */
export async function sessionReview(app: AppContext, tenantId: string, sessionId: string) {
  const { db } = app.database;
  const [[summary], [assessment]] = await Promise.all([
    db.select().from(sessionSummaries).where(and(eq(sessionSummaries.sessionId, sessionId), eq(sessionSummaries.tenantId, tenantId))),
    db.select().from(sessionAssessments).where(and(eq(sessionAssessments.sessionId, sessionId), eq(sessionAssessments.tenantId, tenantId))),
  ]);
  return { summary, assessment };
}

export function aiRoutes(app: AppContext): Router {
  const router = new Router();
  const { db } = app.database;

  router.get('/api/ai/settings', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentAiSettings(app.config, await findAiSettings(db, principal.tenantId)), meta: {} } };
  }));

  router.put('/api/ai/settings', route(app, { auth: 'owner', body: AiSettingsBody }, async ({ principal, body }) => {
    const row = await saveAiSettings(db, app.config, principal, body);
    return { body: { data: presentAiSettings(app.config, row), meta: {} } };
  }));

  // Re-run on demand: the uploader or an owner (those who may read the transcript it is made from).
  for (const kind of ['summary', 'assessment'] as const) router.post(`/api/sessions/:id/${kind}`, route(app, { auth: 'required', params: SessionParams }, async ({ principal, params }) => {
    const session = await findSession(db, principal, params.id);
    authorize(principal, 'session.readTranscript', session);
    if (!session.transcriptKey) throw new AppError('conflict', 'The session has no stored transcript to review');
    if (modelChain(app.config, await findAiSettings(db, principal.tenantId), 'summary').length === 0) {
      throw new AppError('unavailable', 'The AI features are off: no model provider is configured (Settings › AI, or AI_MODELS)');
    }
    const jobId = await requestReview(app, kind, principal.tenantId, session.id);
    return { status: 202, body: { data: { sessionId: session.id, kind, jobId }, meta: {} } };
  }));

  const notebooks = notebookRoutes(app);
  router.use(notebooks.routes(), notebooks.allowedMethods());
  return router;
}
