import { apiQuery } from '../cube';

export type { AiImpactBody, BeforeAfterBody, DifferenceBody, MeasureRow, SideBody } from '../../../../src/aiImpact/presenters';
export type { Level } from '../../../../src/aiImpact/levels';

/** AI-assisted against not for a window of months and the organisation or one team (its id). */
export const aiImpactQuery = (scope: { from: string; to: string; team?: string }) => apiQuery('GET /api/ai-impact', { query: { from: scope.from, to: scope.to, team: scope.team } });
