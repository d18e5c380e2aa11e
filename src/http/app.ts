import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type Router from '@koa/router';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { clientAddress } from './clientAddress.js';
import { errorMiddleware } from './errors.js';
import { healthRoutes } from './routes/health.js';
import { surveyRoutes } from './routes/surveys.js';
import { apiKeyRoutes } from './routes/apiKeys.js';
import { organisationRoutes } from './routes/organisation.js';
import { teamRosterRoutes } from './routes/teamRoster.js';
import { baselineRoutes } from './routes/baseline.js';
import { cubeRoutes } from './routes/cube.js';
import { metricsRoutes } from './routes/metrics.js';
import { authRoutes } from './routes/auth.js';
import { signInProviderRoutes } from '../auth/providers/routes.js';
import { userRoutes } from './routes/users.js';
import { tenantRoutes } from './routes/tenants.js';
import { adminRoutes } from './routes/admin.js';
import { webhookRoutes } from './routes/webhooks.js';
import { sessionRoutes } from './routes/sessions.js';
import { codehostRoutes } from './routes/codehost.js';
import { trackerRoutes } from '../integrations/trackers/routes.js';
import { testHookRoutes } from '../jobs/testRoutes.js';
import mount from 'koa-mount';
import { oauthKeys } from '../oauth/crypto.js';
import { providerFor } from '../oauth/provider.js';
import { oauthRoutes } from '../oauth/routes.js';
import { cliLoginRoutes } from '../cliLogin/routes.js';
import { mcpRoutes } from '../mcp/server.js';
import { webApp } from './web.js';
import { memberRoutes } from '../members/routes.js';
import { biRoutes } from '../bi/routes.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Each capability contributes one router factory; the order here is the mount order. */
export type RouteFactory = (app: AppContext) => Router;
const routeFactories: RouteFactory[] = [
  healthRoutes,
  apiKeyRoutes,
  organisationRoutes,
  teamRosterRoutes,
  baselineRoutes,
  metricsRoutes,
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
  codehostRoutes,
  trackerRoutes,
  testHookRoutes,
  oauthRoutes,
  cliLoginRoutes,
  mcpRoutes,
];

export function createApp(app: AppContext): Koa {
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
  koa.use(errorMiddleware(app.log));

  for (const factory of routeFactories) {
    const router = factory(app);
    koa.use(router.routes()).use(router.allowedMethods());
  }
  // The web app: `/`, `/app` and its assets (GET only; everything else falls through).
  koa.use(webApp(app));
  // The OAuth authorization server last: it answers only its own routes and has no body parser before it.
  koa.use(mount(providerFor(app)));

  koa.use((ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) throw new AppError('not_found', 'Not found');
  });
  return koa;
}
