import type { LinkedIdentity } from '../contract';
import { apiQuery } from '../cube';

export type { LinkedIdentity };

/** The sign-in accounts at providers linked to the signed-in user. */
export const identitiesQuery = apiQuery('GET /api/users/me/identities');
