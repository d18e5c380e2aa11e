/**
 * The month window of every page, held in the URL (`from`, `to` as YYYY-MM) so a view is a link.
 * Calendar arithmetic only: which months a window covers, never a measure.
 */
export interface Window {
  from: string;
  to: string;
}
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const MAX_MONTHS = 36;

const toIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const fromIndex = (i: number) => `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;

export function currentMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}
export function addMonths(month: string, n: number): string {
  return fromIndex(toIndex(month) + n);
}
/** The last 12 full months: the month before this one, and the 11 before it. */
export function defaultWindow(now = new Date()): Window {
  const to = addMonths(currentMonth(now), -1);
  return { from: addMonths(to, -11), to };
}
export function monthsOf(w: Window): string[] {
  const out: string[] = [];
  for (let i = toIndex(w.from); i <= toIndex(w.to); i++) out.push(fromIndex(i));
  return out;
}
export function monthCount(w: Window): number {
  return toIndex(w.to) - toIndex(w.from) + 1;
}
/** The window of the same length just before this one. */
export function previousWindow(w: Window): Window {
  const n = monthCount(w);
  return { from: addMonths(w.from, -n), to: addMonths(w.to, -n) };
}
export function lastDay(month: string): string {
  const next = addMonths(month, 1);
  const d = new Date(Date.UTC(Number(next.slice(0, 4)), Number(next.slice(5, 7)) - 1, 0));
  return d.toISOString().slice(0, 10);
}
export function dateRange(w: Window): [string, string] {
  return [`${w.from}-01`, lastDay(w.to)];
}
export function dayCount(w: Window): number {
  return Math.round((Date.parse(`${lastDay(w.to)}T00:00:00Z`) - Date.parse(`${w.from}-01T00:00:00Z`)) / 86400_000) + 1;
}
/** A window from the URL: both months valid, in order, at most 36 months; otherwise the default. */
export function parseWindow(search: Record<string, unknown>, now = new Date()): Window {
  const from = String(search.from ?? '');
  const to = String(search.to ?? '');
  if (MONTH.test(from) && MONTH.test(to) && toIndex(from) <= toIndex(to) && toIndex(to) - toIndex(from) < MAX_MONTHS) return { from, to };
  return defaultWindow(now);
}
