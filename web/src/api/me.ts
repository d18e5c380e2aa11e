import { useQuery } from '@tanstack/react-query';
import type { Features, Me, TenantAction } from './contract';
import { apiQuery } from './cube';

export type { Features, Me, TenantAction };

/** `meta.features`: the server's optional features; what is off is neither shown nor asked for. */
export const meQuery = apiQuery('GET /api/users/me');

/** The server's features; undefined until known (show nothing optional meanwhile). */
export function useFeatures(): Features | undefined {
  return useQuery(meQuery).data?.meta.features;
}

/**
 * `can(action)`: whether the caller may take the action in the active organisation (`data.actions`,
 * computed by the server's policy table); undefined until known, so a page shows neither the control
 * nor a refusal meanwhile. Pages ask this, never the role: the API refuses what the list leaves out.
 */
export function useCan(): (action: TenantAction) => boolean | undefined {
  const actions = useQuery(meQuery).data?.data.actions;
  return (action) => actions?.includes(action);
}

/** The active organisation's id; undefined until known. A drill-through's link carries it (`dorg`). */
export function useActiveOrganisation(): string | undefined {
  return useQuery(meQuery).data?.data.activeTenant.id;
}
