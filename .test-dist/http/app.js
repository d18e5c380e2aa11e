import { randomUUID } from "node:crypto";
import Koa from "koa";
import { AppError } from "../errors.js";
import { clientAddress } from "./clientAddress.js";
import { securityHeaders } from "./securityHeaders.js";
import { afterResponseErrorHandler, errorMiddleware } from "./errors.js";
import { healthRoutes } from "../operations/health.js";
import { surveyRoutes } from "../surveys/routes.js";
import { apiKeyRoutes } from "../apiKeys/routes.js";
import { organisationRoutes } from "../organisation/routes.js";
import { teamRosterRoutes } from "../exports/teamRosterRoutes.js";
import { baselineRoutes } from "../exports/baselineRoutes.js";
import { cubeRoutes } from "../cube/routes.js";
import { metricsRoutes } from "../operations/metricsRoutes.js";
import { factRoutes } from "../facts/routes.js";
import { authRoutes } from "../auth/routes.js";
import { signInProviderRoutes } from "../auth/providers/routes.js";
import { userRoutes } from "../users/routes.js";
import { tenantRoutes } from "../tenants/routes.js";
import { adminRoutes } from "../operations/adminRoutes.js";
import { webhookRoutes } from "../webhooks/routes.js";
import { sessionRoutes } from "../aiSessions/routes.js";
import { codehostRoutes } from "../codehost/routes.js";
import { deploymentSourceRoutes } from "../deploymentSources/routes.js";
import { trackerRoutes } from "../integrations/trackers/routes.js";
import { testHookRoutes } from "../jobs/testRoutes.js";
import mount from "koa-mount";
import { oauthKeys } from "../oauth/crypto.js";
import { providerFor } from "../oauth/provider.js";
import { oauthRoutes } from "../oauth/routes.js";
import { cliLoginRoutes } from "../cliLogin/routes.js";
import { mcpRoutes } from "../mcp/server.js";
import { webApp } from "./web.js";
import { asSystem, outsideScope } from "../db/tenancy.js";
import { memberRoutes } from "../members/routes.js";
import { biRoutes } from "../bi/routes.js";
import { slackRoutes } from "../integrations/slack/routes.js";
import { notionRoutes } from "../integrations/notion/routes.js";
import { aiRoutes } from "../ai/routes.js";
import { billingRoutes } from "../billing/routes.js";
import { openWorkRoutes } from "../openWork/routes.js";
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
const routeFactories = [
  healthRoutes,
  apiKeyRoutes,
  organisationRoutes,
  teamRosterRoutes,
  baselineRoutes,
  metricsRoutes,
  openWorkRoutes,
  factRoutes,
  cubeRoutes,
  authRoutes,
  signInProviderRoutes,
  userRoutes,
  memberRoutes,
  biRoutes,
  tenantRoutes,
  adminRoutes,
  webhookRoutes,
  surveyRoutes,
  sessionRoutes,
  aiRoutes,
  codehostRoutes,
  deploymentSourceRoutes,
  trackerRoutes,
  slackRoutes,
  notionRoutes,
  billingRoutes,
  testHookRoutes,
  oauthRoutes,
  cliLoginRoutes,
  mcpRoutes
];
const SYSTEM_ROUTERS = /* @__PURE__ */ new Map([
  [oauthRoutes, "authentication"],
  [cliLoginRoutes, "authentication"],
  [healthRoutes, "operator"]
]);
function asSystemMiddleware(reason, middleware) {
  return (ctx, next) => asSystem(reason, () => Promise.resolve(middleware(ctx, () => outsideScope(next))));
}
function createApp(app) {
  const koa = new Koa({ proxy: true });
  koa.keys = oauthKeys(app.config.oauthEncryptionKey).cookies;
  koa.use(clientAddress(app.config.trustedProxies));
  koa.use(async (ctx, next) => {
    const incoming = ctx.get("x-request-id");
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set("X-Request-Id", ctx.state.requestId);
    await next();
  });
  koa.use(securityHeaders(app.config.appUrl));
  koa.use(errorMiddleware(app.log));
  koa.on("error", afterResponseErrorHandler(app.log));
  for (const factory of routeFactories) {
    const router = factory(app);
    const reason = SYSTEM_ROUTERS.get(factory);
    koa.use(reason ? asSystemMiddleware(reason, router.routes()) : router.routes()).use(router.allowedMethods());
  }
  koa.use(webApp(app));
  koa.use(asSystemMiddleware("authentication", mount(providerFor(app))));
  koa.use((ctx) => {
    if (ctx.status === 404 && ctx.body === void 0) throw new AppError("not_found", "Not found");
  });
  return koa;
}
export {
  createApp
};
