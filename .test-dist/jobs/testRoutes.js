import Router from "@koa/router";
import { z } from "zod";
import { route } from "../http/route.js";
const LiveBody = z.object({ sentAt: z.number(), seq: z.number().int() });
function testHookRoutes(app) {
  const router = new Router();
  if (!app.config.testHooks) return router;
  router.post("/api/test/live", route(app, { auth: "required", limit: "none", body: LiveBody }, async ({ principal, body }) => {
    await app.live.publish(principal.tenantId, { kind: "test.ping", sentAt: body.sentAt, seq: body.seq });
    return { status: 202, body: { data: { published: true }, meta: {} } };
  }));
  return router;
}
export {
  testHookRoutes
};
