/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { LEVELS } from '../aiImpact/service.js';
import { checkFactsWindow, FactsWindow } from './window.js';

/**
 * A measure, a window of months or days (at most 36 months, as the dashboards and the baseline
 * export: window.ts), a team (slug or id), a page; `marked=true` lists only a rate's marked rows,
 * `sort` orders by any row key (`dir` asc or desc).
 */
export const FactsQuery = FactsWindow.extend({
  measure: z.string().min(1).max(201),
  team: z.string().min(1).max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  format: z.enum(['json', 'csv'], { message: 'Must be json or csv' }).optional(),
  /** `true`: the rows stored but replaced by another deployment source (one source per period), listed apart. */
  replaced: z.enum(['true', 'false'], { message: 'Must be true or false' }).optional().transform((v) => v === 'true'),
  marked: z.enum(['true', 'false'], { message: 'Must be true or false' }).optional().transform((v) => v === 'true'),
  sort: z.string().min(1).max(60).optional(),
  dir: z.enum(['asc', 'desc'], { message: 'Must be asc or desc' }).optional(),
  /**
   * One side of "AI against not" (docs/ai-impact.md), the AI-assisted PRs or the others, or one AI
   * attribution level; pull request and change lead time lists only.
   */
  split: z.enum(['ai', 'other', ...LEVELS], { message: `Must be ai, other or a level (${LEVELS.join(', ')})` }).optional(),
}).superRefine(checkFactsWindow);
export type FactsQuery = z.infer<typeof FactsQuery>;
