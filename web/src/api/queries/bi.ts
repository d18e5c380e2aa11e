import { apiQuery } from '../cube';

export interface BiCredential {
  id: string;
  name: string;
  user: string;
  createdAt: string;
}

/** The answer of POST /api/bi/credentials: the connection, password included, shown once. */
export interface NewBiCredential extends BiCredential {
  password: string;
  host: string;
  port: number;
  database: string;
  sslmode: string;
  url: string;
}

export const biCredentialsQuery = () => apiQuery<{ data: BiCredential[]; meta: Record<string, never> }>('/api/bi/credentials');
