/**
 * Members and invitations: the general API (`/api/members`, `/api/invitations`). The page behind an
 * invitation link, where the invitee signs in and joins, is part of signing in (identity/inviteRoutes.ts).
 */
import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { ROLES } from '../auth/principal.js';
import { listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { createInvitation, listInvitations, revokeInvitation } from './invitations.js';
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
