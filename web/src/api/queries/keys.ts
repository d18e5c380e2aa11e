import type { ApiKey, ListMeta } from '../contract';
import { apiQuery } from '../cube';

export type { ApiKey, ListMeta };

export const keysQuery = (page: number) => apiQuery('GET /api/keys', { query: { page, perPage: 25 } });
