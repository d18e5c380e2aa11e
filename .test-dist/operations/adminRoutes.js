import Router from "@koa/router";
import { asSystem } from "../db/tenancy.js";
import { configReport, staleIntegrationCounts } from "./configReport.js";
import { route } from "../http/route.js";
function adminRoutes(app) {
  const router = new Router();
  router.get("/api/config-report", route(app, { auth: "admin" }, async () => ({
    body: { data: { ...configReport(app.config), staleIntegrations: await asSystem("operator", () => staleIntegrationCounts(app.database.db)) }, meta: {} }
  })));
  return router;
}
export {
  adminRoutes
};
