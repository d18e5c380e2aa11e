/** The AI routes: Settings › AI and the notebooks (notebook/routes.ts); a session's review (its jobs, re-runs and presenters) is with the sessions (aiSessions/). */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { route, type ApiRouter } from '../http/route.js';
import { presentAiSettings } from './presenters.js';
import { findAiSettings, saveAiSettings } from './settings.js';
import { AiSettingsBody } from './schemas.js';
import { notebookRoutes } from './notebook/routes.js';

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
