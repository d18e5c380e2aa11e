/**
 * Calendar months as `YYYY-MM` strings (UTC) and the window of months every surface asks for
 * (the team-baseline export, the facts lists, AI impact, metrics, benchmarks, MCP): `to` defaults
 * to the current month, `from` to twelve months before `to`, at most 36 months, never reversed.
 * One module so the rule has one place (issue 44); it imports zod and shared/ only.
 */
import { z } from 'zod';
import { Month } from './schemas.js';

/** Months since year 0: consecutive months differ by one. */
export const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

export const monthOf = (index: number) => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** How many days the month has. */
export const daysIn = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/** The month's last day, `YYYY-MM-DD`. */
export const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

/** The months `from`..`to`, inclusive. */
export function monthRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i += 1) out.push(monthOf(i));
  return out;
}

/** The month before `month`. */
export const previousMonth = (month: string) => monthOf(monthIndex(month) - 1);

export const currentMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** The month before the one `now` is in: the last closed month. */
export const closedMonth = (now = new Date()) => previousMonth(currentMonth(now));

export const MAX_WINDOW_MONTHS = 36;
// Years 1970 to 9999, as every date of the API (docs/input-limits.md).

/** The request of every surface; a window over 36 months or reversed is refused, never truncated. */
export const MonthWindow = z.object({
  from: Month.optional(),
  to: Month.optional(),
});

/** `to` defaults to the current month (UTC), `from` to twelve months before `to`. */
export function resolveWindow(q: { from?: string; to?: string }, now = new Date()): { from: string; to: string } {
  const to = q.to ?? currentMonth(now);
  const from = q.from ?? monthOf(monthIndex(to) - 12);
  return { from, to };
}

/** Refuses a reversed window or one over 36 months (after applying the defaults). */
export function checkWindow(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  const { from, to } = resolveWindow(q);
  const length = monthIndex(to) - monthIndex(from) + 1;
  if (length < 1) ctx.addIssue({ code: 'custom', path: ['from'], message: `Must not be after to (${to})` });
  else if (length > MAX_WINDOW_MONTHS) ctx.addIssue({ code: 'custom', path: ['to'], message: `The window is at most ${MAX_WINDOW_MONTHS} months (${from} to ${to} is ${length})` });
}
