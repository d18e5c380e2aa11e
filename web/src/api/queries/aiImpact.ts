import { apiQuery } from '../cube';
import type { Scope } from '../../lib/scope';
import { dateRange } from '../../lib/window';

export type { AiImpactBody, AiImpactLevelsBody, BeforeAfterBody, DifferenceBody, MeasureRow, SideBody } from '../../../../src/aiImpact/presenters';
export type { Level } from '../../../../src/aiImpact/levels';

/**
 * AI-assisted against not for a window of months and the organisation or one team (its id),
 * without the per-level values: the page asks for those apart (aiImpactLevelsQuery) once the
 * comparison shows, so that the comparison does not wait for a second read of the window.
 */
export const aiImpactQuery = (scope: { from: string; to: string; team?: string }) => apiQuery('GET /api/ai-impact', { query: { from: scope.from, to: scope.to, team: scope.team, levels: 'omit' } });

/** Each measure's value and n per AI attribution level, for the same window and team. */
export const aiImpactLevelsQuery = (scope: { from: string; to: string; team?: string }) => apiQuery('GET /api/ai-impact/levels', { query: { from: scope.from, to: scope.to, team: scope.team } });

/** The page's queries for a scope: a days window asks for its months (the comparison is by whole months). */
export function aiImpactOf(scope: Scope) {
  const [first, last] = dateRange(scope);
  const window = { from: first.slice(0, 7), to: last.slice(0, 7), team: scope.team };
  return { window, query: aiImpactQuery(window), levels: aiImpactLevelsQuery(window) };
}
