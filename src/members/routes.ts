/**
 * Members and invitations: the general API (`/api/members`, `/api/invitations`). The page behind an
 * invitation link, where the invitee signs in and joins, is part of signing in (identity/inviteRoutes.ts).
 */
import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.js';
import { keysChanged } from '../apiKeys/principal.js';
import { changeMemberRole, listMembers, removeMember } from './members.js';
import { presentCreatedInvitation, presentInvitation, presentMember } from './presenters.js';
import { ChangeRoleBody, CreateInvitationBody, IdParams, UserParams } from './schemas.js';

export function memberRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

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
  return router;
}
