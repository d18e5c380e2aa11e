import Router from "@koa/router";
import { download, route } from "../http/route.js";
import { factsCsv, FactsQuery, listFacts } from "./service.js";
function factRoutes(app) {
  const router = new Router();
  router.get("/api/facts", route(app, { auth: "required", query: FactsQuery }, async ({ ctx, principal, query }) => {
    const csv = query.format === "csv" || query.format === void 0 && ctx.accepts("application/json", "text/csv") === "text/csv";
    if (csv) {
      const { filename, body } = await factsCsv(app.database.pool, principal.tenantId, query);
      return download({ contentType: "text/csv; charset=utf-8", filename, body });
    }
    return { body: await listFacts(app.database.pool, principal.tenantId, query) };
  }));
  return router;
}
export {
  factRoutes
};
