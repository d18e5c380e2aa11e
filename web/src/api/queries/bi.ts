import type { BiCredential, NewBiCredential } from '../contract';
import { apiQuery } from '../cube';

export type { BiCredential, NewBiCredential };

export const biCredentialsQuery = () => apiQuery('GET /api/bi/credentials');
