/** The AI routes: Settings › AI and the notebooks (notebook/routes.ts); a session's re-runs are with the sessions (aiSessions/routes.ts). */
import Router from '@koa/router';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { sessionAssessments, sessionSummaries } from '../db/schema/index.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentAiSettings } from './presenters.js';
import { AiSettingsBody, findAiSettings, saveAiSettings } from './settings.js';
import { notebookRoutes } from './notebook/routes.js';

/** The stored review of a session, for its detail view. */
export async function sessionReview(app: AppContext, tenantId: string, sessionId: string) {
  const { db } = app.database;
  const [[summary], [assessment]] = await Promise.all([
    db.select().from(sessionSummaries).where(and(eq(sessionSummaries.sessionId, sessionId), eq(sessionSummaries.tenantId, tenantId))),
    db.select().from(sessionAssessments).where(and(eq(sessionAssessments.sessionId, sessionId), eq(sessionAssessments.tenantId, tenantId))),
  ]);
  return { summary, assessment };
}

export function aiRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/ai/settings', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentAiSettings(app.config, await findAiSettings(db, principal.tenantId)), meta: {} } };
  }));

  router.put('/api/ai/settings', route(app, { auth: { policy: 'ai.manage' }, body: AiSettingsBody }, async ({ principal, body }) => {
    const row = await saveAiSettings(db, app.config, principal, body);
    return { body: { data: presentAiSettings(app.config, row), meta: {} } };
  }));

  const notebooks = notebookRoutes(app);
  router.use(notebooks.routes(), notebooks.allowedMethods());
  return router;
}
