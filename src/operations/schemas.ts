/** The request schemas of the routes of this folder (the routes files keep the wiring). */
import { z } from 'zod';
import { Paging } from '../http/route.js';
import { checkWindow, MonthWindow } from '../shared/monthWindow.js';

/** `team` is a team slug; `from`/`to` as the baseline export (same defaults and 36-month limit). */
export const MetricsQuery = MonthWindow.extend({
  ...Paging.shape,
  team: z.string().min(1).max(200).optional(),
}).superRefine(checkWindow);
export type MetricsQuery = z.infer<typeof MetricsQuery>;
