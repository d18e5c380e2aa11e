import { queryOptions } from '@tanstack/react-query';
import { api, pathOf, type ApiArgs, type ApiOptions, type RouteKey } from './client';
import type { ContinueWait, CubeLoad } from './contract';

export type Filter = { member: string; operator: 'equals' | 'notEquals' | 'set' | 'notSet' | 'inDateRange'; values?: string[] };
export interface CubeQuery {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension: string; granularity?: 'month'; dateRange?: [string, string] }[];
  filters?: Filter[];
  order?: [string, 'asc' | 'desc'][];
  limit?: number;
}
export type CubeResult = CubeLoad;
export type CubeRow = CubeLoad['data'][number];

/**
 * Every number on a page comes through here: the Cube REST protocol of the server, with JSON
 * numbers (`castNumerics`). A long query answers Cube's "Continue wait" and is asked again, as
 * Cube's own client does, until its rows are there.
 */
async function load(query: CubeQuery, signal: AbortSignal): Promise<CubeResult> {
  for (;;) {
    // The table types `data` for every response format; the app asks the default one, rows.
    const body = (await api('GET /cubejs-api/v1/load', { query: { castNumerics: 'true', query: JSON.stringify(query) }, signal })) as CubeResult | ContinueWait;
    if (!('error' in body) || body.error !== 'Continue wait') return body as CubeResult;
  }
}

export const cubeQuery = (query: CubeQuery) => queryOptions({ queryKey: ['cube', query], staleTime: 60_000, queryFn: ({ signal }) => load(query, signal) });

/**
 * Reference data that only an operator's corpus reload changes: fetched once per tab, and outside
 * the `cube` key so the live refresh after every webhook batch does not ask for it again.
 */
export const referenceCubeQuery = (query: CubeQuery) => queryOptions({ queryKey: ['reference', query], staleTime: Infinity, queryFn: ({ signal }) => load(query, signal) });

type GetKey = RouteKey & `GET ${string}`;

/** A GET of the table as a query: keyed `['api', path, query]`, so a change refetches it by its path's prefix. */
function keyedQuery<K extends GetKey>(prefix: 'api' | 'vendor', key: K, options: ApiOptions<K> | undefined) {
  const { params, query } = (options ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
  const args = (signal: AbortSignal) => [{ ...options, signal }] as unknown as ApiArgs<K>;
  return queryOptions({ queryKey: [prefix, pathOf(key, params), query ?? {}], queryFn: ({ signal }) => api(key, ...args(signal)) });
}

export const apiQuery = <K extends GetKey>(key: K, ...[options]: ApiArgs<K>) => queryOptions({ ...keyedQuery('api', key, options), staleTime: 60_000 });

/**
 * A listing the server reads from a vendor on each request (Slack channels, Notion pages): not our
 * data, so the live refresh after every webhook batch leaves it alone (it would call the vendor
 * again each time); kept for 5 minutes, and asked again when its page is opened after that.
 */
export const vendorQuery = <K extends GetKey>(key: K, ...[options]: ApiArgs<K>) => queryOptions({ ...keyedQuery('vendor', key, options), staleTime: 5 * 60_000 });

/** A numeric cell: the server sends numbers (or null); anything else is not a number. */
export const num = (row: CubeRow | undefined, key: string): number | null => {
  const v = row?.[key];
  return typeof v === 'number' ? v : v === null || v === undefined ? null : Number.isFinite(Number(v)) ? Number(v) : null;
};

export const teamFilter = (teamId: string | undefined): Filter[] => (teamId ? [{ member: 'teams.id', operator: 'equals', values: [teamId] }] : []);
