import type { Data, LinkedIdentity } from '../contract';
import { apiQuery } from '../cube';

export type { LinkedIdentity };

/** The sign-in accounts at providers linked to the signed-in user. */
export const identitiesQuery = apiQuery<Data<LinkedIdentity[], { emailSignIn: boolean }>>('/api/users/me/identities');
