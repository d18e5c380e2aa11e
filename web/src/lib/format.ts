/** Formatting only: the numbers come from the server as they are shown, never recomputed here. */
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const monthName = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const twoDigits = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 });
const clock = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hour12: false });

export type Kind = 'count' | 'ratio' | 'seconds' | 'score';

export function formatCount(v: number): string {
  return integer.format(v);
}
export function formatRatio(v: number): string {
  return percent.format(v);
}
export function formatScore(v: number): string {
  return oneDecimal.format(v);
}
/** Seconds as the largest unit that keeps the number readable: 45 min, 18.2 h, 3.1 d. */
export function formatSeconds(v: number): string {
  if (v < 60) return `${integer.format(v)} s`;
  if (v < 3600) return `${integer.format(v / 60)} min`;
  if (v < 48 * 3600) return `${oneDecimal.format(v / 3600)} h`;
  return `${oneDecimal.format(v / 86400)} d`;
}
/** An age in whole units, rounded down: 40 min, 5 h, 3 d (the server counts the seconds). */
export function formatAge(seconds: number): string {
  if (seconds < 3600) return `${integer.format(Math.floor(seconds / 60))} min`;
  if (seconds < 86400) return `${integer.format(Math.floor(seconds / 3600))} h`;
  return `${integer.format(Math.floor(seconds / 86400))} d`;
}
export function formatValue(v: number, kind: Kind): string {
  return kind === 'count' ? formatCount(v) : kind === 'ratio' ? formatRatio(v) : kind === 'seconds' ? formatSeconds(v) : formatScore(v);
}
/** "2026-03" → "Mar 2026". */
export function formatMonth(month: string): string {
  return monthName.format(new Date(`${month.slice(0, 7)}-01T00:00:00Z`));
}
/** "2026-03-02T00:00:00.000" → "2 Mar 2026" (a date the cube sent, in UTC). */
export function formatDay(iso: string): string {
  return day.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
}
/** A rate: whole above 10, one decimal above 1, else two significant digits (0.31, 0.086). */
export function formatRate(v: number): string {
  return v >= 10 ? integer.format(v) : v >= 1 ? oneDecimal.format(v) : twoDigits.format(v);
}
export function formatClock(ms: number): string {
  return clock.format(new Date(ms));
}

/** A moment as the reader's local date and time (records: created, last used, finished). */
export function formatDateTime(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The one unit a column of durations is shown in (issue 46 point 5): the unit its largest value would take. */
export type SecondsUnit = 's' | 'min' | 'h' | 'd';
export function secondsUnit(values: (number | null | undefined)[]): SecondsUnit {
  const max = Math.max(0, ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
  return max < 60 ? 's' : max < 3600 ? 'min' : max < 48 * 3600 ? 'h' : 'd';
}
const UNIT_SECONDS: Record<SecondsUnit, number> = { s: 1, min: 60, h: 3600, d: 86400 };
/** Seconds in a given unit: whole seconds and minutes, one decimal for hours and days. */
export function formatSecondsIn(v: number, unit: SecondsUnit): string {
  return `${secondsValueIn(v, unit)} ${unit}`;
}
/** The number alone, for a column whose header names the unit. */
export function secondsValueIn(v: number, unit: SecondsUnit): string {
  const n = v / UNIT_SECONDS[unit];
  return unit === 's' || unit === 'min' ? integer.format(n) : oneDecimal.format(n);
}

const M = 60;
const HOUR = 3600;
const DAY = 86400;
/** The steps a duration axis may take: round in minutes, hours or days (uPlot picks the one that fits). */
export const DURATION_TICKS = [M, 5 * M, 10 * M, 15 * M, 30 * M, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 60 * DAY, 90 * DAY, 180 * DAY, 365 * DAY];
const tick = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
/** A duration axis's labels in the one unit of its largest tick: 0 h, 6 h, 12 h, 18 h; 0 d, 0.5 d, 1 d. */
export function formatDurationTicks(ticks: number[]): string[] {
  const unit = secondsUnit(ticks);
  return ticks.map((t) => `${tick.format(t / UNIT_SECONDS[unit])} ${unit}`);
}
