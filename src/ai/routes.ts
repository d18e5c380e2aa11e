/** The AI routes: Settings › AI, re-running a session's summary or assessment, and the notebooks (notebook/routes.ts). */
import Router from '@koa/router';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { sessionAssessments, sessionSummaries } from '../db/schema/index.js';
import { route } from '../http/route.js';
import { rerunSessionReview } from '../aiSessions/service.js';
import { presentAiSettings } from './presenters.js';
import { AiSettingsBody, findAiSettings, saveAiSettings } from './settings.js';
import { notebookRoutes } from './notebook/routes.js';

const SessionParams = z.object({ id: z.uuid() }).catch({ id: '00000000-0000-0000-0000-000000000000' });

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

  router.put('/api/ai/settings', route(app, { auth: { policy: 'ai.manage' }, body: AiSettingsBody }, async ({ principal, body }) => {
    const row = await saveAiSettings(db, app.config, principal, body);
    return { body: { data: presentAiSettings(app.config, row), meta: {} } };
  }));

  // Re-run on demand: the uploader or an owner (those who may read the transcript it is made from).
  for (const kind of ['summary', 'assessment'] as const) router.post(`/api/sessions/:id/${kind}`, route(app, { auth: 'required', params: SessionParams }, async ({ principal, params }) => {
    const jobId = await rerunSessionReview(app, principal, kind, params.id);
    return { status: 202, body: { data: { sessionId: params.id, kind, jobId }, meta: {} } };
  }));

  const notebooks = notebookRoutes(app);
  router.use(notebooks.routes(), notebooks.allowedMethods());
  return router;
}
