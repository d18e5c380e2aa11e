import type { CubeQuery } from '../cube';
import { teamFilter } from '../cube';
import { dateRange, type Window } from '../../lib/window';
import type { Scope } from '../../lib/scope';

export type Fact = { time: string | null; measures: string[] };

/**
 * One query over several fact cubes: each cube's measures by its own time dimension. A query takes
 * at most 5 time dimensions, so a window total over more fact cubes (`windowAsFilters`, no
 * granularity) gives each cube's window as an `inDateRange` filter on its time dimension instead:
 * the same rows in one request (a filter on a fact cube applies to that cube's measures only).
 */
export function factQuery(facts: Fact[], scope: Scope, window: Window, options: { byMonth?: boolean; dimensions?: string[]; teamFilter?: boolean; windowAsFilters?: boolean } = {}): CubeQuery {
  const timed = facts.flatMap((f) => (f.time ? [f.time] : []));
  const asFilters = options.windowAsFilters === true && !options.byMonth;
  return {
    measures: facts.flatMap((f) => f.measures),
    dimensions: options.dimensions ?? [],
    timeDimensions: asFilters ? [] : timed.map((dimension) => ({ dimension, dateRange: dateRange(window), ...(options.byMonth ? { granularity: 'month' as const } : {}) })),
    filters: [
      ...(options.teamFilter === false ? [] : teamFilter(scope.team)),
      ...(asFilters ? timed.map((member) => ({ member, operator: 'inDateRange' as const, values: dateRange(window) })) : []),
    ],
    limit: 10_000,
  };
}

/** The row of a month in a by-month answer, keyed by any of the queried time dimensions. */
export function byMonth(rows: Record<string, unknown>[], times: string[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    for (const t of times) {
      const v = row[`${t}.month`];
      if (typeof v === 'string') {
        out.set(v.slice(0, 7), row);
        break;
      }
    }
  }
  return out;
}

export const TEAMS_QUERY: CubeQuery = {
  dimensions: ['teams.id', 'teams.name', 'teams.slug'],
  filters: [{ member: 'teams.enabled', operator: 'equals', values: ['true'] }],
  order: [['teams.name', 'asc']],
  limit: 10_000,
};
