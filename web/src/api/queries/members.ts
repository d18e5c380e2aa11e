import { apiQuery } from '../cube';
import type { ListMeta } from './keys';

export type Role = 'owner' | 'member';
export const ROLES: readonly Role[] = ['member', 'owner'];

export interface Member {
  userId: string;
  email: string;
  displayName: string | null;
  role: Role;
  joinedAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  status: 'pending' | 'expired';
  invitedBy: { userId: string; email: string } | null;
  createdAt: string;
  expiresAt: string;
}

/** The answer to POST /api/invitations: the link only when the server could not e-mail it. */
export type NewInvitation = Invitation & { delivery: { method: 'mail' } | { method: 'link'; link: string; reason: string } };

export const membersQuery = (page: number) => apiQuery<{ data: Member[]; meta: ListMeta }>('/api/members', { page, perPage: 25 });
export const invitationsQuery = (page: number) => apiQuery<{ data: Invitation[]; meta: ListMeta }>('/api/invitations', { page, perPage: 25 });
