/**
 * The window of every page, held in the URL so a view is a link: whole months (`from`, `to` as
 * YYYY-MM; `to` may be the current month, "month to date") or the last 30 or 90 days (`days`).
 * A days window also carries the months it touches as `from` and `to`, for the lists that are by
 * month (the baseline export). Calendar arithmetic only, in UTC: which days and months a window
 * covers, never a measure.
 */
export interface Window {
  from: string;
  to: string;
  /** The last N days, ending today (or `end`). */
  days?: number;
  /** A days window's last day when it is not today (the previous window of a days window). */
  end?: string;
}
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const MAX_MONTHS = 36;
/** The days windows a person can pick. */
export const DAY_WINDOWS = [30, 90] as const;

const toIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const fromIndex = (i: number) => `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;

export function currentMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}
/** Today (UTC), `YYYY-MM-DD`. */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
export function addMonths(month: string, n: number): string {
  return fromIndex(toIndex(month) + n);
}
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);
}
/** The last 12 full months: the month before this one, and the 11 before it. */
export function defaultWindow(now = new Date()): Window {
  const to = addMonths(currentMonth(now), -1);
  return { from: addMonths(to, -11), to };
}
/** The last `days` days, today included, with the months they touch. */
export function daysWindow(days: number, end = today()): Window {
  const start = addDays(end, -(days - 1));
  return { from: start.slice(0, 7), to: end.slice(0, 7), days, ...(end === today() ? {} : { end }) };
}
export function monthsOf(w: Window): string[] {
  const out: string[] = [];
  for (let i = toIndex(w.from); i <= toIndex(w.to); i++) out.push(fromIndex(i));
  return out;
}
export function monthCount(w: Window): number {
  return toIndex(w.to) - toIndex(w.from) + 1;
}
/** The window of the same length just before this one (the same number of days for a days window). */
export function previousWindow(w: Window): Window {
  if (w.days) return daysWindow(w.days, addDays(dateRange(w)[0], -1));
  const n = monthCount(w);
  return { from: addMonths(w.from, -n), to: addMonths(w.to, -n) };
}
export function lastDay(month: string): string {
  const next = addMonths(month, 1);
  const d = new Date(Date.UTC(Number(next.slice(0, 4)), Number(next.slice(5, 7)) - 1, 0));
  return d.toISOString().slice(0, 10);
}
/** The window's first and last day; a window reaching into this month ends today (month to date). */
export function dateRange(w: Window, now = new Date()): [string, string] {
  if (w.days) {
    const end = w.end ?? today(now);
    return [addDays(end, -(w.days - 1)), end];
  }
  const last = lastDay(w.to);
  return [`${w.from}-01`, last < today(now) ? last : today(now)];
}
export function dayCount(w: Window): number {
  const [first, last] = dateRange(w);
  return Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86400_000) + 1;
}
/** The days of `month` inside the window, and whether that is less than the whole month (a partial month). */
export function monthSpan(w: Window, month: string, now = new Date()): { first: string; last: string; partial: boolean } {
  const [start, end] = dateRange(w, now);
  const first = `${month}-01` < start ? start : `${month}-01`;
  const last = lastDay(month) > end ? end : lastDay(month);
  return { first, last, partial: first !== `${month}-01` || last !== lastDay(month) };
}
/**
 * A window from the URL: `days` one of 30 or 90; else both months valid, in order, at most 36
 * months, not after this month; otherwise the default.
 */
export function parseWindow(search: Record<string, unknown>, now = new Date()): Window {
  const days = Number(search.days);
  if ((DAY_WINDOWS as readonly number[]).includes(days)) return daysWindow(days, today(now));
  const from = String(search.from ?? '');
  const to = String(search.to ?? '');
  if (MONTH.test(from) && MONTH.test(to) && toIndex(from) <= toIndex(to) && toIndex(to) - toIndex(from) < MAX_MONTHS && toIndex(to) <= toIndex(currentMonth(now))) return { from, to };
  return defaultWindow(now);
}
