import Router from "@koa/router";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { sessionAssessments, sessionSummaries } from "../db/schema/index.js";
import { route } from "../http/route.js";
import { rerunSessionReview } from "../aiSessions/service.js";
import { presentAiSettings } from "./presenters.js";
import { AiSettingsBody, findAiSettings, saveAiSettings } from "./settings.js";
import { notebookRoutes } from "./notebook/routes.js";
import { Uuid } from "../shared/schemas.js";
const SessionParams = z.object({ id: Uuid }).catch({ id: "00000000-0000-0000-0000-000000000000" });
async function sessionReview(app, tenantId, sessionId) {
  const { db } = app.database;
  const [[summary], [assessment]] = await Promise.all([
    db.select().from(sessionSummaries).where(and(eq(sessionSummaries.sessionId, sessionId), eq(sessionSummaries.tenantId, tenantId))),
    db.select().from(sessionAssessments).where(and(eq(sessionAssessments.sessionId, sessionId), eq(sessionAssessments.tenantId, tenantId)))
  ]);
  return { summary, assessment };
}
function aiRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  router.get("/api/ai/settings", route(app, { auth: "required" }, async ({ principal }) => {
    return { body: { data: presentAiSettings(app.config, await findAiSettings(db, principal.tenantId)), meta: {} } };
  }));
  router.put("/api/ai/settings", route(app, { auth: { policy: "ai.manage" }, body: AiSettingsBody }, async ({ principal, body }) => {
    const row = await saveAiSettings(db, app.config, principal, body);
    return { body: { data: presentAiSettings(app.config, row), meta: {} } };
  }));
  for (const kind of ["summary", "assessment"]) router.post(`/api/sessions/:id/${kind}`, route(app, { auth: "required", params: SessionParams }, async ({ principal, params }) => {
    const jobId = await rerunSessionReview(app, principal, kind, params.id);
    return { status: 202, body: { data: { sessionId: params.id, kind, jobId }, meta: {} } };
  }));
  const notebooks = notebookRoutes(app);
  router.use(notebooks.routes(), notebooks.allowedMethods());
  return router;
}
export {
  aiRoutes,
  sessionReview
};
