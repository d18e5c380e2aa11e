import Router from "@koa/router";
import { route } from "../http/route.js";
import { billingNotice, billingOverview } from "./service.js";
import { receivePaddleNotification } from "./webhook.js";
const WEBHOOK_BODY_LIMIT = 256 * 1024;
function billingRoutes(app) {
  const router = new Router();
  if (!app.config.billing) return router;
  router.get("/api/billing", route(app, { auth: { policy: "billing.manage" } }, async ({ principal }) => ({ body: { data: await billingOverview(app, principal), meta: {} } })));
  router.get("/api/billing/notice", route(app, { auth: "required" }, async ({ principal }) => ({ body: { data: await billingNotice(app, principal.tenantId), meta: {} } })));
  router.post("/api/billing/webhook", route(app, { auth: "none", system: "inbound-routing", limit: "none", bodyKind: "raw", bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => {
    const { status, body: answer } = await receivePaddleNotification(app, ctx.get("paddle-signature"), body);
    return { status, body: answer };
  }));
  return router;
}
export {
  billingRoutes
};
