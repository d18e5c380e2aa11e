import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { checkFormToken, checkOrigin, CSRF_FIELD, issueCsrfToken } from '../auth/csrf.js';
import type { Principal, TenantPrincipal } from '../auth/principal.js';
import { can } from '../auth/policies.js';
import { presentCodehostStatus, presentInstallation } from './presenters.js';
import { renderSetupPage } from './setupPage.js';
import { codehostUrls, linkInstallation, listInstallations, previewSetup, requireCodehostApp, unlinkInstallation } from './installations.js';
import { receiveCodehostWebhook } from './webhook.js';
import { requestInstallationBackfill } from './backfill.js';
import { AppError, zodDetails } from '../errors.js';
import { sendPage } from '../http/html.js';
import { route, type ApiRouter } from '../http/route.js';
import { InstallationParams, LinkBody, SETUP_FORM_LIMIT, SetupForm, SetupQuery, WEBHOOK_BODY_LIMIT } from './schemas.js';

const SETUP_PATH = '/api/integrations/codehost/setup';

/**
 * The setup callback and its confirmation need a tenant's user whom `codehost.link` allows; the
 * page, reached from the code host, says what was refused in its own words.
 */
function setupOwner(principal: Principal): TenantPrincipal {
  if (principal.kind === 'admin') throw new AppError('forbidden', 'The global administrator has no tenant; use an account of the tenant');
  if (!can(principal, 'codehost.link')) throw new AppError('forbidden', 'Only an owner of the tenant can link a code-host installation');
  return principal;
}

export function codehostRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  const linkedUrl = (installationId: number) => `${app.config.appUrl}/app/settings/integrations?codehost=linked&installation=${installationId}`;

  // Authenticated by its signature, not by a principal; unsigned floods are refused before any query.
  router.post('/api/integrations/codehost/webhook', route(app, { auth: 'none', system: 'inbound-routing', limit: 'none', bodyKind: 'raw', bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => {
    const deliveryId = ctx.get('x-github-delivery');
    const event = ctx.get('x-github-event');
    const outcome = await receiveCodehostWebhook(app, { event, deliveryId, signature: ctx.get('x-hub-signature-256'), body });
    const { status, ...rest } = outcome;
    return { status, body: { data: { delivery: deliveryId, event, ...rest }, meta: {} } };
  }));

  router.get('/api/integrations/codehost', route(app, { auth: 'required' }, async ({ principal }) => {
    const codehost = app.config.codehostApp;
    const installations = codehost ? await listInstallations(db, principal) : [];
    return { body: { data: presentCodehostStatus(codehost, codehostUrls(app), installations), meta: {} } };
  }));

  router.post('/api/integrations/codehost/installations', route(app, { auth: { policy: 'codehost.link' }, body: LinkBody }, async ({ principal, body }) => {
    requireCodehostApp(app);
    const { row, created } = await linkInstallation(db, principal, body.installationId);
    if (created) await requestInstallationBackfill(app, principal.tenantId, row.installationId);
    return { status: created ? 201 : 200, body: { data: presentInstallation(row), meta: {} } };
  }));

  router.delete('/api/integrations/codehost/installations/:installationId', route(app, { auth: { policy: 'codehost.link' }, params: InstallationParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    requireCodehostApp(app);
    return { body: { data: presentInstallation(await unlinkInstallation(db, principal, params.installationId)), meta: {} } };
  }));

  // The application's setup URL: the code host sends the installer here after an install. A GET
  // is a top-level navigation that any site can start with the owner's SameSite=Lax cookie, so it
  // only shows what would be linked; the link needs the form post below (Origin + CSRF token).
  router.get(SETUP_PATH, route(app, { auth: 'optional', query: SetupQuery }, async ({ ctx, principal, query }) => {
    requireCodehostApp(app);
    if (!principal) {
      const returnUrl = ctx.originalUrl;
      return { status: 302, headers: { location: `${app.config.appUrl}/login?returnUrl=${encodeURIComponent(returnUrl)}` } };
    }
    const owner = setupOwner(principal);
    const preview = await previewSetup(db, owner, query.installation_id);
    sendPage(ctx, preview.state === 'unknown' ? 404 : 200, renderSetupPage({
      preview, action: SETUP_PATH, csrfToken: issueCsrfToken(ctx, app.config.production), continueUrl: linkedUrl(query.installation_id),
    }));
  }));

  // route() has already refused a cookie-authenticated post from another origin; the explicit
  // check covers any other principal, and the token proves the post came from our own page.
  router.post(SETUP_PATH, route(app, { auth: 'optional', bodyKind: 'form', bodyLimit: SETUP_FORM_LIMIT }, async ({ ctx, principal, body }) => {
    requireCodehostApp(app);
    if (!principal) throw new AppError('unauthorized', 'Missing or invalid credentials');
    const owner = setupOwner(principal);
    checkOrigin(ctx, app.config.appUrl);
    const form = body;
    checkFormToken(ctx, form[CSRF_FIELD]);
    const parsed = SetupForm.safeParse(form);
    if (!parsed.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(parsed.error, undefined, form));
    const { row, created } = await linkInstallation(db, owner, parsed.data.installation_id);
    if (created) await requestInstallationBackfill(app, owner.tenantId, row.installationId);
    return { status: 303, headers: { location: linkedUrl(parsed.data.installation_id) } };
  }));

  return router;
}
