import { useQuery } from '@tanstack/react-query';
import { apiQuery } from './cube';

export interface Me {
  user: { id: string; email: string; displayName: string | null };
  tenants: { id: string; name: string; slug: string; role: string }[];
  activeTenant: { id: string; name: string; slug: string; role: string };
}

/** The server's optional features (`GET /api/users/me` → `meta.features`): what is off is neither shown nor asked for. */
export interface Features {
  billing: boolean;
}

export const meQuery = apiQuery<{ data: Me; meta: { features: Features } }>('/api/users/me');

/** The server's features; undefined until known (show nothing optional meanwhile). */
export function useFeatures(): Features | undefined {
  return useQuery(meQuery).data?.meta.features;
}
