/** The request schemas of the exports' routes, the CLI's export commands and MCP (routes keep the wiring). */
import { z } from 'zod';
import { isIsoDate, todayUtc } from '../organisation/csvImport.js';
import { checkWindow, MonthWindow } from '../shared/monthWindow.js';

/** The request of every surface; a window over 36 months or reversed is refused, never truncated. */
export const BaselineQuery = MonthWindow.extend({
  format: z.enum(['csv', 'json'], { message: 'Must be csv or json' }).default('csv'),
  /** One team's rows only (its slug), exactly as they are in the whole export: the web app's team download. */
  team: z.string().min(1).max(100).optional(),
}).superRefine(checkWindow);
export type BaselineQuery = z.infer<typeof BaselineQuery>;

/**
 * The request of both surfaces. `asOf` defaults to today (UTC) and may not be later; it is echoed
 * on every row and filters nothing (the roster is always current membership).
 */
export const RosterQuery = z.object({
  asOf: z.string()
    .refine(isIsoDate, { message: 'Must be a date YYYY-MM-DD', abort: true })
    .refine((d) => d <= todayUtc(), { message: 'Must not be in the future (today is the UTC date)' })
    .optional(),
  format: z.enum(['csv', 'json'], { message: 'Must be csv or json' }).default('csv'),
});
export type RosterQuery = z.infer<typeof RosterQuery>;
