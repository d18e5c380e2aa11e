import { apiQuery } from './cube';

export interface Me {
  user: { id: string; email: string; displayName: string | null };
  tenants: { id: string; name: string; slug: string; role: string }[];
  activeTenant: { id: string; name: string; slug: string; role: string };
}

export const meQuery = apiQuery<{ data: Me }>('/api/users/me');
