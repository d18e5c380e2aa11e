import Router from "@koa/router";
import { z } from "zod";
import { route } from "../http/route.js";
import { presentOpenWork } from "./presenters.js";
import { openWork, SECTION_LIMIT } from "./service.js";
const OpenWorkQuery = z.object({ team: z.string().trim().min(1).max(200).optional() });
function openWorkRoutes(app) {
  const router = new Router();
  router.get("/api/open-work", route(app, { auth: "required", query: OpenWorkQuery }, async ({ principal, query }) => {
    const result = await openWork(app.database.pool, app.database.db, principal.tenantId, query.team);
    return { body: presentOpenWork(result, SECTION_LIMIT) };
  }));
  return router;
}
export {
  OpenWorkQuery,
  openWorkRoutes
};
