import type { Invitation, List, Member, NewInvitation, Role } from '../contract';
import { apiQuery } from '../cube';

export type { Invitation, Member, NewInvitation, Role };
export const ROLES: readonly Role[] = ['member', 'owner'];

export const membersQuery = (page: number) => apiQuery<List<Member>>('/api/members', { page, perPage: 25 });
export const invitationsQuery = (page: number) => apiQuery<List<Invitation>>('/api/invitations', { page, perPage: 25 });
