/**
 * Members and invitations: the general API (`/api/members`, `/api/invitations`) and the
 * server-rendered page behind an invitation link (`/invite/<token>`), which works signed out too.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { checkFormToken, checkOrigin, CSRF_FIELD, issueCsrfToken } from '../auth/csrf.js';
import { ROLES, type Principal } from '../auth/principal.js';
import { sha256 } from '../auth/secrets.js';
import { readBody } from '../http/body.js';
import { sendPage } from '../http/html.js';
import { consume } from '../http/rateLimit.js';
import { listEnvelope, Paging, route } from '../http/route.js';
import { PER_ADDRESS } from '../auth/routes.js';
import { mailerConfigured } from '../mail/mailer.js';
import { requestInvitationSignIn } from '../auth/signIn.js';
import { userEmail } from '../users/service.js';
import { acceptInvitation, createInvitation, INVITE_PATH, invitationByToken, listInvitations, revokeInvitation, type InvitationRow } from './invitations.js';
import { INVITE_STATUS, renderInvitePage, type InviteView } from './invitePage.js';
import { keysChanged } from '../apiKeys/principal.js';
import { changeMemberRole, listMembers, removeMember } from './members.js';
import { presentCreatedInvitation, presentInvitation, presentMember } from './presenters.js';
import { Uuid } from '../shared/schemas.js';

const Role = z.enum(ROLES);
export const ChangeRoleBody = z.strictObject({ role: Role });
export const CreateInvitationBody = z.strictObject({ email: z.email().max(320), role: Role });
// A malformed id is an id that matches nothing: 404, like another tenant's.
const NOWHERE = '00000000-0000-0000-0000-000000000000';
const UserParams = z.object({ userId: Uuid }).catch({ userId: NOWHERE });
const IdParams = z.object({ id: Uuid }).catch({ id: NOWHERE });
const TokenParams = z.object({ token: z.string().max(300) });
const InviteQuery = z.object({ sent: z.string().optional().catch(undefined) });
const FORM_LIMIT = 16 * 1024;

export function memberRoutes(app: AppContext): Router {
  const router = new Router();
  const { db } = app.database;
  const secure = app.config.production;

  router.get('/api/members', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listMembers(db, principal, query);
    return { body: listEnvelope(rows.map(presentMember), query, total) };
  }));

  router.patch('/api/members/:userId', route(app, { auth: 'required', params: UserParams, body: ChangeRoleBody }, async ({ principal, params, body }) => {
    const member = await changeMemberRole(db, principal, params.userId, body.role);
    await keysChanged(app, principal.tenantId);
    return { body: { data: presentMember(member), meta: {} } };
  }));

  router.delete('/api/members/:userId', route(app, { auth: 'required', params: UserParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    const member = await removeMember(db, principal, params.userId);
    await keysChanged(app, principal.tenantId);
    return { body: { data: presentMember(member), meta: {} } };
  }));

  router.get('/api/invitations', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listInvitations(db, principal, query);
    return { body: listEnvelope(rows.map(presentInvitation), query, total) };
  }));

  router.post('/api/invitations', route(app, { auth: 'required', body: CreateInvitationBody }, async ({ principal, body }) => {
    return { status: 201, body: { data: presentCreatedInvitation(await createInvitation(app, principal, body)), meta: {} } };
  }));

  router.delete('/api/invitations/:id', route(app, { auth: 'required', params: IdParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    return { body: { data: presentInvitation(await revokeInvitation(db, principal, params.id)), meta: {} } };
  }));

  // ---- The link's page. Only a login session counts as signed in (a bearer key is no person).

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
    checkOrigin(ctx, app.config.appUrl);
    const form = (await readBody(ctx, 'form', FORM_LIMIT)) as Record<string, string>;
    checkFormToken(ctx, form[CSRF_FIELD]);
    const invitation = await invitationByToken(db, params.token);
    const dead = deadView(invitation);
    if (dead || !invitation) return show(ctx, dead ?? { kind: 'unknown' });
    const session = sessionOf(principal);
    const email = session ? await userEmail(db, session.userId) : null;
    if (!session || email === null || email !== invitation.email) return { status: 303, headers: { Location: pathOf(params.token) } };
    const joined = await acceptInvitation(db, { token: params.token }, { id: session.userId, email }, session.sessionId);
    if (!joined) return show(ctx, deadView(await invitationByToken(db, params.token)) ?? { kind: 'unknown' });
    return { status: 303, headers: { Location: '/app/' } };
  }));

  router.post(`${INVITE_PATH}/:token/sign-in`, route(app, { system: 'authentication', auth: 'none', params: TokenParams }, async ({ ctx, params }) => {
    checkOrigin(ctx, app.config.appUrl);
    const form = (await readBody(ctx, 'form', FORM_LIMIT)) as Record<string, string>;
    checkFormToken(ctx, form[CSRF_FIELD]);
    const invitation = await invitationByToken(db, params.token);
    const dead = deadView(invitation);
    if (dead || !invitation) return show(ctx, dead ?? { kind: 'unknown' });
    await consume(app, `addr:${sha256(invitation.email)}`, [PER_ADDRESS]);
    await requestInvitationSignIn(app, invitation);
    return { status: 303, headers: { Location: `${pathOf(params.token)}?sent=1` } };
  }));

  return router;
}
