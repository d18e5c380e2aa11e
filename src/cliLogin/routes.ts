/**
 * The CLI login's browser side (docs/auth.md): the verification URI the CLI prints, and the
 * approve step. Same rules as the MCP consent page: our `sessionId` decides who is signed in, the
 * form carries an HMAC token bound to that session and to the code, a cross-origin post is refused,
 * and pages are sent with the consent pages' headers (no script, no framing, no caching, no referrer).
 */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { CLI_APPROVE_PATH, CLI_LOGIN_PATH, cliResource } from '../oauth/constants.js';
import { CONSENT_PAGE, renderMessagePage } from '../oauth/consentPage.js';
import { sendPage } from '../http/html.js';
import { csrfToken, csrfValid, oauthKeys } from '../auth/crypto.js';
import { tenantsOfUser } from '../oauth/grants.js';
import { providerFor } from '../oauth/provider.js';
import { limit, readApprovalForm, sessionOf } from '../oauth/routes.js';
import { renderApprovalPage, renderCodeEntryPage } from './page.js';
import { approveLogin, denyLogin, findPendingLogin, normalizeUserCode } from './service.js';
import { isUuid } from '../shared/schemas.js';

const UNUSABLE_CODE = 'This code is unknown, has expired (a CLI login waits 10 minutes) or was already used. Check the code, or run delivery-analytics login again.';

export function cliLoginRoutes(app: AppContext): Router {
  const router = new Router();
  const { config } = app;
  const { db } = app.database;
  const keys = oauthKeys(config.oauthEncryptionKey);
  const resource = cliResource(config.appUrl);
  // Bound to the session and the code: a token from one approval page is worth nothing on another.
  const purpose = (userCode: string) => `cli-login:${userCode}`;

  router.get(CLI_LOGIN_PATH, async (ctx) => {
    await limit(app, ctx, 'authorize');
    const input = typeof ctx.query.user_code === 'string' ? ctx.query.user_code : '';
    const session = await sessionOf(app, ctx);
    if (!session) {
      const normalized = normalizeUserCode(input);
      const back = normalized ? `${CLI_LOGIN_PATH}?user_code=${normalized}` : CLI_LOGIN_PATH;
      return ctx.redirect(`/login?returnUrl=${encodeURIComponent(back)}`);
    }
    if (input === '') return sendPage(ctx, 200, renderCodeEntryPage(null), CONSENT_PAGE);
    const login = await findPendingLogin(providerFor(app), input);
    if (!login) return sendPage(ctx, 404, renderCodeEntryPage(UNUSABLE_CODE), CONSENT_PAGE);
    const tenants = await tenantsOfUser(db, session.principal.userId);
    if (tenants.length === 0) return sendPage(ctx, 403, renderMessagePage('No tenant', 'Your account is not a member of any tenant.'), CONSENT_PAGE);
    sendPage(ctx, 200, renderApprovalPage({
      userCode: login.userCode,
      machineName: login.machineName,
      tenants,
      csrfToken: csrfToken(keys.csrf, session.principal.sessionId as string, purpose(login.userCode)),
    }), CONSENT_PAGE);
  });

  router.post(CLI_APPROVE_PATH, async (ctx) => {
    const form = await readApprovalForm(app, ctx);
    if (!form) return;
    const session = await sessionOf(app, ctx);
    if (!session) return sendPage(ctx, 401, renderMessagePage('Signed out', 'Sign in again, then open the link the CLI shows once more.'), CONSENT_PAGE);
    const userCode = typeof form.user_code === 'string' ? form.user_code : '';
    if (!csrfValid(keys.csrf, session.principal.sessionId as string, purpose(userCode), form.csrf)) {
      return sendPage(ctx, 403, renderMessagePage('Forbidden', 'The form token is missing or invalid. Reload the page and try again.'), CONSENT_PAGE);
    }
    const login = await findPendingLogin(providerFor(app), userCode);
    if (!login) return sendPage(ctx, 404, renderMessagePage('CLI login expired', UNUSABLE_CODE), CONSENT_PAGE);
    if (form.action === 'deny') {
      await denyLogin(login);
      return sendPage(ctx, 200, renderMessagePage('CLI login denied', 'The CLI was told no and receives no key. You can close this page.'), CONSENT_PAGE);
    }
    if (form.action !== 'approve') return sendPage(ctx, 400, renderMessagePage('Bad request', 'Choose Approve or Deny.'), CONSENT_PAGE);
    const tenantId = typeof form.tenantId === 'string' ? form.tenantId : '';
    const role = isUuid(tenantId) ? await approveLogin(db, providerFor(app), login, session.principal.userId, tenantId, resource) : null;
    if (!role) return sendPage(ctx, 403, renderMessagePage('Forbidden', 'You are not a member of that tenant.'), CONSENT_PAGE);
    sendPage(ctx, 200, renderMessagePage('CLI login approved', `The CLI receives its API key (with your role, ${role}) in a few seconds. You can close this page and return to your terminal.`), CONSENT_PAGE);
  });

  // oidc-provider's own verification steps (its form post and its resume) are never used.
  const unused = () => {
    throw new AppError('not_found', 'Not found');
  };
  router.post(CLI_LOGIN_PATH, unused);
  router.get(`${CLI_LOGIN_PATH}/:step`, unused);

  return router;
}
