import { apiQuery } from '../cube';

/** A sign-in account at a provider linked to the signed-in user (GET /api/users/me/identities). */
export interface LinkedIdentity {
  id: string;
  provider: 'github' | 'gitlab' | 'google' | 'microsoft';
  providerName: string;
  username: string | null;
  email: string | null;
  createdAt: string;
  lastSignInAt: string;
}

export const identitiesQuery = apiQuery<{ data: LinkedIdentity[]; meta: { emailSignIn: boolean } }>('/api/users/me/identities');
