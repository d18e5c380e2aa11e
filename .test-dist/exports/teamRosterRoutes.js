import Router from "@koa/router";
import { exportTeamRoster, RosterQuery } from "./teamRoster.js";
import { download, route } from "../http/route.js";
function teamRosterRoutes(app) {
  const router = new Router();
  router.get("/api/exports/team-roster", route(app, { auth: "required", query: RosterQuery }, async ({ principal, query }) => {
    return download(await exportTeamRoster(app.database.db, principal.tenantId, query));
  }));
  return router;
}
export {
  teamRosterRoutes
};
