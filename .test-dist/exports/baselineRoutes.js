import Router from "@koa/router";
import { BaselineQuery, exportTeamBaseline } from "./baseline.js";
import { download, route } from "../http/route.js";
function baselineRoutes(app) {
  const router = new Router();
  router.get("/api/exports/team-baseline", route(app, { auth: "required", query: BaselineQuery }, async ({ principal, query }) => {
    return download(await exportTeamBaseline(app.database.pool, principal.tenantId, query));
  }));
  return router;
}
export {
  baselineRoutes
};
