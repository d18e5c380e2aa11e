import { useQuery } from '@tanstack/react-query';
import type { Data, Features, Me } from './contract';
import { apiQuery } from './cube';

export type { Features, Me };

/** `meta.features`: the server's optional features; what is off is neither shown nor asked for. */
export const meQuery = apiQuery<Data<Me, { features: Features }>>('/api/users/me');

/** The server's features; undefined until known (show nothing optional meanwhile). */
export function useFeatures(): Features | undefined {
  return useQuery(meQuery).data?.meta.features;
}
