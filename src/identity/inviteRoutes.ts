/**
 * The page behind an invitation link (`/invite/<token>`), which works signed out too: the invitee
 * signs in (a sign-in link to the invited address) and joins. Only a login session counts as
 * signed in (a bearer key is no person).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { checkFormToken, checkOrigin, CSRF_FIELD, issueCsrfToken } from '../auth/csrf.js';
import type { Principal } from '../auth/principal.js';
import { sha256 } from '../auth/secrets.js';
import { readBody } from '../http/body.js';
import { sendPage } from '../http/html.js';
import { consume } from '../http/rateLimit.js';
import { route, type ApiRouter } from '../http/route.js';
import { mailerConfigured } from '../mail/mailer.js';
import { acceptInvitation, INVITE_PATH, invitationByToken, type InvitationRow } from '../members/invitations.js';
import { userEmail } from '../users/service.js';
import { INVITE_STATUS, renderInvitePage, type InviteView } from './invitePage.js';
import { PER_ADDRESS } from './routes.js';
import { requestInvitationSignIn } from './signIn.js';
import { InviteQuery, TokenParams } from './schemas.js';

const FORM_LIMIT = 16 * 1024;

export function inviteRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  const secure = app.config.production;

  const pathOf = (token: string) => `${INVITE_PATH}/${token}`;
  const show = (ctx: Koa.Context, view: InviteView) => {
    // Referrer-Policy stays same-origin (sendPage): the token in this address never leaves the site,
    // and with no-referrer browsers send `Origin: null` on the page's own forms.
    sendPage(ctx, INVITE_STATUS[view.kind], renderInvitePage(view));
  };
  const deadView = (invitation: InvitationRow | null): InviteView | null => {
    if (!invitation) return { kind: 'unknown' };
    return invitation.status === 'pending' ? null : { kind: invitation.status, invitation };
  };
  const sessionOf = (principal: Principal | null) => (principal?.kind === 'session' ? principal : null);
  /**
   * A form posted to the link's page (CSRF token and Origin checked): its open invitation, or null
   * once the page has said why there is none (used, revoked, expired, unknown).
   */
  const postedTo = async (ctx: Koa.Context, token: string): Promise<InvitationRow | null> => {
    checkOrigin(ctx, app.config.appUrl);
    const form = (await readBody(ctx, 'form', FORM_LIMIT)) as Record<string, string>;
    checkFormToken(ctx, form[CSRF_FIELD]);
    const invitation = await invitationByToken(db, token);
    const dead = deadView(invitation);
    if (dead || !invitation) {
      show(ctx, dead ?? { kind: 'unknown' });
      return null;
    }
    return invitation;
  };

  router.get(`${INVITE_PATH}/:token`, route(app, { system: 'authentication', auth: 'optional', params: TokenParams, query: InviteQuery }, async ({ ctx, principal, params, query }) => {
    const invitation = await invitationByToken(db, params.token);
    const dead = deadView(invitation);
    if (dead || !invitation) return show(ctx, dead ?? { kind: 'unknown' });
    const csrfToken = issueCsrfToken(ctx, secure);
    const session = sessionOf(principal);
    const signedInAs = session ? await userEmail(db, session.userId) : null;
    if (signedInAs === null) {
      show(ctx, {
        kind: 'sign_in', invitation, action: `${pathOf(params.token)}/sign-in`, csrfToken, sent: query.sent === '1',
        emailAvailable: mailerConfigured(app.config) || !app.config.production, linkInLog: !mailerConfigured(app.config) && !app.config.production,
      });
    } else if (signedInAs !== invitation.email) {
      show(ctx, { kind: 'wrong_user', invitation, signedInAs, returnUrl: pathOf(params.token), csrfToken });
    } else {
      show(ctx, { kind: 'join', invitation, action: pathOf(params.token), csrfToken });
    }
  }));

  // Joining is a deliberate POST (CSRF token and Origin checked): a page another site makes the
  // browser open cannot add the person to a tenant.
  router.post(`${INVITE_PATH}/:token`, route(app, { system: 'authentication', auth: 'optional', params: TokenParams }, async ({ ctx, principal, params }) => {
    const invitation = await postedTo(ctx, params.token);
    if (!invitation) return;
    const session = sessionOf(principal);
    const email = session ? await userEmail(db, session.userId) : null;
    if (!session || email === null || email !== invitation.email) return { status: 303, headers: { Location: pathOf(params.token) } };
    const joined = await acceptInvitation(db, { token: params.token }, { id: session.userId, email }, session.sessionId);
    if (!joined) return show(ctx, deadView(await invitationByToken(db, params.token)) ?? { kind: 'unknown' });
    return { status: 303, headers: { Location: '/app/' } };
  }));

  router.post(`${INVITE_PATH}/:token/sign-in`, route(app, { system: 'authentication', auth: 'none', params: TokenParams }, async ({ ctx, params }) => {
    const invitation = await postedTo(ctx, params.token);
    if (!invitation) return;
    await consume(app, `addr:${sha256(invitation.email)}`, [PER_ADDRESS]);
    await requestInvitationSignIn(app, invitation);
    return { status: 303, headers: { Location: `${pathOf(params.token)}?sent=1` } };
  }));

  return router;
}
