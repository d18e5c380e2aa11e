/** What every dashboard is about: a month window and, optionally, one team. Held in the URL. */
import { parseWindow, type Window } from './window';

export interface Scope extends Window {
  team?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateScope(search: Record<string, unknown>): Scope {
  const w = parseWindow(search);
  const team = typeof search.team === 'string' && UUID.test(search.team) ? search.team.toLowerCase() : undefined;
  return team ? { ...w, team } : w;
}

/** A table's sort in the URL: `sort` a column key (the page ignores one it does not have), `dir` asc or desc. */
export interface TableSort {
  sort?: string;
  dir?: 'asc' | 'desc';
}
export function validateTableSort(search: Record<string, unknown>): TableSort {
  const sort = typeof search.sort === 'string' && /^[a-z0-9-]{1,40}$/.test(search.sort) ? search.sort : undefined;
  const dir = search.dir === 'asc' || search.dir === 'desc' ? search.dir : undefined;
  return { ...(sort ? { sort } : {}), ...(sort && dir ? { dir } : {}) };
}

import { useSearch } from '@tanstack/react-router';
/** The page's scope from the URL (validated by the root route). */
export function useScope(): Scope {
  return useSearch({ strict: false }) as Scope;
}

/** For a Link between pages that do not use the scope: carry the window and team along unchanged. */
export const keepScope = ((search: Scope) => search) as never;
