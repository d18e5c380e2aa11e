import type { BiCredential, Data, NewBiCredential } from '../contract';
import { apiQuery } from '../cube';

export type { BiCredential, NewBiCredential };

export const biCredentialsQuery = () => apiQuery<Data<BiCredential[]>>('/api/bi/credentials');
