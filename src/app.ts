import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import type { AppContext, RequestHooks } from './context.js';
import { AppError } from './errors.js';
import { clientAddress } from './http/clientAddress.js';
import { securityHeaders } from './http/securityHeaders.js';
import { refuseCrossSiteCookieWrites } from './auth/csrf.js';
import { SESSION_COOKIE } from './auth/sessions.js';
import { afterResponseErrorHandler, errorMiddleware } from './http/errors.js';
import { healthRoutes } from './operations/health.js';
import { surveyRoutes } from './surveys/routes.js';
import { apiKeyRoutes } from './apiKeys/routes.js';
import { organisationRoutes } from './organisation/routes.js';
import { teamRosterRoutes } from './exports/teamRosterRoutes.js';
import { baselineRoutes } from './exports/baselineRoutes.js';
import { cubeRoutes } from './cube/routes.js';
import { metricsRoutes } from './operations/metricsRoutes.js';
import { factRoutes } from './facts/routes.js';
import { aiImpactRoutes } from './aiImpact/routes.js';
import { authRoutes } from './identity/routes.js';
import { signInProviderRoutes } from './identity/providers/routes.js';
import { userRoutes } from './users/routes.js';
import { tenantRoutes } from './tenants/routes.js';
import { adminRoutes } from './operations/adminRoutes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { sessionRoutes } from './aiSessions/routes.js';
import { aiTelemetryRoutes } from './aiTelemetry/routes.js';
import { aiAttributionRoutes } from './aiAttribution/routes.js';
import { codehostRoutes } from './codehost/routes.js';
import { deploymentSourceRoutes } from './deploymentSources/routes.js';
import { trackerRoutes } from './integrations/trackers/routes.js';
import { testHookRoutes } from './jobs/testRoutes.js';
import mount from 'koa-mount';
import { oauthKeys } from './auth/crypto.js';
import { providerFor } from './oauth/provider.js';
import { oauthRoutes } from './oauth/routes.js';
import { cliLoginRoutes } from './cliLogin/routes.js';
import { mcpRoutes } from './mcp/server.js';
import { webApp } from './http/web.js';
import { asSystem, outsideScope, type SystemReason } from './db/tenancy.js';
import { memberRoutes } from './members/routes.js';
import { inviteRoutes } from './identity/inviteRoutes.js';
import { biRoutes } from './bi/routes.js';
import { slackRoutes } from './integrations/slack/routes.js';
import { notionRoutes } from './integrations/notion/routes.js';
import { aiRoutes } from './ai/routes.js';
import { aiVendorRoutes } from './aiVendors/routes.js';
import { billingRoutes } from './billing/routes.js';
import { openWorkRoutes } from './openWork/routes.js';
import { authenticate } from './identity/authenticate.js';
import { assertWritable } from './billing/entitlements.js';
import { principalCache } from './apiKeys/principal.js';
import { route, type TableOf } from './http/route.js';
import { openApiDocument, routeTable, type TableRoute } from './http/openapi.js';
import { webhookOpenApi } from './webhooks/openapi.js';
import type { notebookRoutes } from './ai/notebook/routes.js';
import type { trackerKindRoutes } from './integrations/trackers/routes.js';
import type { TrackerKind } from './integrations/trackers/types.js';

/** What http/ and live/ call through the context (src/context.ts), from the capabilities that own it. */
export const requestHooks: RequestHooks = {
  authenticate,
  assertWritable,
  forgetKeyPrincipals(app, tenantId) {
    const cache = principalCache(app.database.db);
    if (tenantId === null) cache.forgetAll();
    else cache.forgetTenant(tenantId);
  },
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Each capability contributes one router factory; the order here is the mount order. */
export type RouteFactory = (app: AppContext) => Pick<Router, 'routes' | 'allowedMethods' | 'stack'>;
const routeFactories = [
  healthRoutes,
  apiKeyRoutes,
  organisationRoutes,
  teamRosterRoutes,
  baselineRoutes,
  metricsRoutes,
  openWorkRoutes,
  factRoutes,
  aiImpactRoutes,
  cubeRoutes,
  authRoutes,
  signInProviderRoutes,
  userRoutes,
  memberRoutes,
  inviteRoutes,
  biRoutes,
  tenantRoutes,
  adminRoutes,
  webhookRoutes,
  surveyRoutes,
  sessionRoutes,
  aiTelemetryRoutes,
  aiAttributionRoutes,
  aiRoutes,
  aiVendorRoutes,
  codehostRoutes,
  deploymentSourceRoutes,
  trackerRoutes,
  slackRoutes,
  notionRoutes,
  billingRoutes,
  testHookRoutes,
  oauthRoutes,
  cliLoginRoutes,
  mcpRoutes,
] as const satisfies readonly RouteFactory[];

/**
 * The route table's type, keyed by method and path: `Routes['GET /api/deployment-sources']` is
 * `{params, query, body, response}`, what a client sends and what the route's presenters answer.
 * The web app's `api()` is typed by it (web/src/api/client.ts, a type-only import); the same
 * table at run time gives the OpenAPI document (http/openapi.ts). Routers mounted inside another
 * (the notebooks', each tracker's) are named here.
 */
export type Routes = TableOf<ReturnType<(typeof routeFactories)[number] | typeof notebookRoutes | typeof trackerKindRoutes<TrackerKind>>>;

/**
 * Routers whose every route is work across tenants by design (docs/tenancy.md): the OAuth
 * server and the CLI login find grants and users before any tenant is known; health reads the
 * migration journal. Every other route runs as its principal's tenant (route.ts).
 */
const SYSTEM_ROUTERS = new Map<RouteFactory, SystemReason>([
  [oauthRoutes, 'authentication'],
  [cliLoginRoutes, 'authentication'],
  [healthRoutes, 'operator'],
]);

/** `middleware` runs as system work; whatever it passes on to (`next`) does not. */
function asSystemMiddleware<C>(reason: SystemReason, middleware: (ctx: C, next: Koa.Next) => unknown): (ctx: C, next: Koa.Next) => Promise<unknown> {
  return (ctx, next) => asSystem(reason, () => Promise.resolve(middleware(ctx, () => outsideScope(next))));
}

export function createApp(app: AppContext): Koa & { routeTable: TableRoute[] } {
  // X-Forwarded-* count only from TRUSTED_PROXIES: clientAddress() drops them from anyone else
  // and sets ctx.ip, so `proxy: true` (scheme and host for cookies and URLs) trusts only proxies.
  const koa = new Koa({ proxy: true });
  // Signed cookies of the OAuth layer: oidc-provider runs on this app's context (mounted below).
  koa.keys = oauthKeys(app.config.oauthEncryptionKey).cookies;

  koa.use(clientAddress(app.config.trustedProxies));
  koa.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  });
  // Outside the error middleware, so error answers get them too.
  koa.use(securityHeaders(app.config.appUrl));
  koa.use(errorMiddleware(app.log));
  koa.use(refuseCrossSiteCookieWrites(app.config.appUrl, SESSION_COOKIE));
  koa.on('error', afterResponseErrorHandler(app.log));

  const routers: ReturnType<RouteFactory>[] = [];
  for (const factory of routeFactories) {
    const router = factory(app);
    routers.push(router);
    const reason = SYSTEM_ROUTERS.get(factory);
    koa.use(reason ? asSystemMiddleware(reason, router.routes()) : router.routes()).use(router.allowedMethods());
  }
  // The OpenAPI document of the general API (from the routes just mounted) and the webhook API:
  // public, built once, no tenant data in it (docs/api.md "OpenAPI").
  const openApi = new Router();
  const table = routeTable(routers);
  const document = JSON.stringify(openApiDocument(table, webhookOpenApi(app.config.appUrl)));
  openApi.get('/api/openapi.json', route(app, { auth: 'none', limit: 'none' }, () => ({ body: document, type: 'application/json' })));
  koa.use(openApi.routes()).use(openApi.allowedMethods());
  // The web app: `/`, `/app` and its assets (GET only; everything else falls through).
  koa.use(webApp(app));
  // The OAuth authorization server last: it answers only its own routes and has no body parser before it.
  koa.use(asSystemMiddleware('authentication', mount(providerFor(app))));

  koa.use((ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) throw new AppError('not_found', 'Not found');
  });
  return Object.assign(koa, { routeTable: table });
}
