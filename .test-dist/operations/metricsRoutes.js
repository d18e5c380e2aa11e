import Router from "@koa/router";
import { listMetrics, MetricsQuery } from "./metrics.js";
import { route } from "../http/route.js";
function metricsRoutes(app) {
  const router = new Router();
  router.get("/api/metrics", route(app, { auth: "required", query: MetricsQuery }, async ({ principal, query }) => {
    const { rows, total, from, to } = await listMetrics(app.database.pool, principal.tenantId, query);
    return { body: { data: rows, meta: { page: query.page, perPage: query.perPage, total, from, to } } };
  }));
  return router;
}
export {
  metricsRoutes
};
