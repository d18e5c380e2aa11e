import type { ApiKey, List, ListMeta } from '../contract';
import { apiQuery } from '../cube';

export type { ApiKey, ListMeta };

export const keysQuery = (page: number) => apiQuery<List<ApiKey>>('/api/keys', { page, perPage: 25 });
