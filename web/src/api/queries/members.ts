import type { Invitation, Member, NewInvitation, Role } from '../contract';
import { apiQuery } from '../cube';

export type { Invitation, Member, NewInvitation, Role };
export const ROLES: readonly Role[] = ['member', 'owner'];

export const membersQuery = (page: number) => apiQuery('GET /api/members', { query: { page, perPage: 25 } });
export const invitationsQuery = (page: number) => apiQuery('GET /api/invitations', { query: { page, perPage: 25 } });
