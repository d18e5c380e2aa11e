/**
 * The window of a facts list: whole months (`YYYY-MM`, as the dashboards and the baseline export)
 * or days (`YYYY-MM-DD`, for the web app's "last 30/90 days" and a chart's partial month), either
 * form in either field. A month `from` starts on its first day, a month `to` ends on its last.
 */
import { z } from 'zod';
import { lastDay, MAX_WINDOW_MONTHS, monthIndex, resolveWindow } from '../shared/monthWindow.js';
import { MONTH_PATTERN } from '../shared/schemas.js';

const DAY_PATTERN = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A real calendar day (no 30 February). */
const isDay = (s: string) => DAY_PATTERN.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
const MonthOrDay = z.string().refine((s) => MONTH_PATTERN.test(s) || isDay(s), 'Must be a month YYYY-MM or a day YYYY-MM-DD');

export const FactsWindow = z.object({ from: MonthOrDay.optional(), to: MonthOrDay.optional() });

/** The window's first and last day, `YYYY-MM-DD`; the defaults are the baseline export's. */
export function dayRange(q: { from?: string; to?: string }): [string, string] {
  const { from, to } = resolveWindow({ from: q.from?.slice(0, 7), to: q.to?.slice(0, 7) });
  return [q.from && q.from.length === 10 ? q.from : `${from}-01`, q.to && q.to.length === 10 ? q.to : lastDay(to)];
}

/** Refuses a reversed window or one that touches more than 36 months, naming the field. */
export function checkFactsWindow(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if ((q.from !== undefined && !MonthOrDay.safeParse(q.from).success) || (q.to !== undefined && !MonthOrDay.safeParse(q.to).success)) return;
  const [first, last] = dayRange(q);
  const months = monthIndex(last.slice(0, 7)) - monthIndex(first.slice(0, 7)) + 1;
  if (first > last) ctx.addIssue({ code: 'custom', path: ['from'], message: `Must not be after to (${q.to ?? last.slice(0, 7)})` });
  else if (months > MAX_WINDOW_MONTHS) ctx.addIssue({ code: 'custom', path: ['to'], message: `The window is at most ${MAX_WINDOW_MONTHS} months (${first} to ${last} touches ${months})` });
}
