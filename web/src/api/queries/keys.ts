import { apiQuery } from '../cube';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdBy: { userId: string; email: string };
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
export interface ListMeta {
  page: number;
  perPage: number;
  total: number;
}

export const keysQuery = (page: number) => apiQuery<{ data: ApiKey[]; meta: ListMeta }>('/api/keys', { page, perPage: 25 });
