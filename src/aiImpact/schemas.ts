import { z } from 'zod';
import { checkWindow, MonthWindow } from '../shared/monthWindow.js';

/** The window and team both AI impact routes take. */
const AiImpactScope = MonthWindow.extend({ team: z.string().trim().min(1).max(200).optional() });

/**
 * `GET /api/ai-impact`: a window of whole months (at most 36, as the dashboards and the baseline
 * export; `to` defaults to the current month, `from` to twelve months before it) and optionally a
 * team (slug or id); without one, the organisation.
 */
export const AiImpactQuery = AiImpactScope.extend({
  /**
   * `omit`: the comparison without each measure's per-level values, which are a second full read of
   * the window; the page asks for them apart (`GET /api/ai-impact/levels`) once the comparison shows.
   */
  levels: z.enum(['include', 'omit']).optional(),
}).superRefine(checkWindow);
export type AiImpactQuery = z.infer<typeof AiImpactQuery>;

/** `GET /api/ai-impact/levels`: the same window and team. */
export const AiImpactLevelsQuery = AiImpactScope.superRefine(checkWindow);
export type AiImpactLevelsQuery = z.infer<typeof AiImpactLevelsQuery>;
