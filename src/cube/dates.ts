/**
 * Dates of a Cube query: time zones (IANA names), relative date ranges (`last 3 months`,
 * `from 7 days ago to now`) and the day boundaries of date filters, with the semantics of Cube's
 * API gateway (docs/cube-protocol.md "Dates and time zones"). Every value comes out as a local timestamp
 * `YYYY-MM-DDTHH:mm:ss.SSS` in the query's time zone, which is what the planner binds.
 */
import * as chrono from 'chrono-node';
import moment from 'moment-timezone';
import { AppError } from '../errors.js';

const LOCAL = 'YYYY-MM-DDTHH:mm:ss.SSS';
/** A calendar date, or a timestamp with an optional UTC designator or offset. */
export const ABSOLUTE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type Unit = (typeof UNITS)[number];
// Literals, not `new RegExp`: no expression in the server is built from text (docs/input-limits.md).
const THIS_LAST_NEXT = /^(this|last|next) (second|minute|hour|day|week|month|quarter|year)s?$/;
const LAST_NEXT_N = /^(last|next) (\d{1,4}) (second|minute|hour|day|week|month|quarter|year)s?$/;
// Zone names reach the SQL as literals (`AT TIME ZONE '…'`): only these characters ever pass.
const SAFE_ZONE = /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/;

/** The canonical IANA name of a zone (`europe/amsterdam` → `Europe/Amsterdam`), or null. */
export function canonicalZone(name: string): string | null {
  if (!SAFE_ZONE.test(name)) return null;
  const zone = moment.tz.zone(name);
  return zone && SAFE_ZONE.test(zone.name) ? zone.name : null;
}

const startOfUnit = (m: moment.Moment, unit: Unit) => m.startOf(unit === 'week' ? 'isoWeek' : unit);
const endOfUnit = (m: moment.Moment, unit: Unit) => m.endOf(unit === 'week' ? 'isoWeek' : unit);

/** The forms a date range takes, named in the refusal of one that is none of them. */
export const DATE_RANGE_FORMS =
  '["YYYY-MM-DD", "YYYY-MM-DD"] (or ISO timestamps), a single date "YYYY-MM-DD" (that whole day), or a relative range as one string: ' +
  '"today", "yesterday", "this week", "this month", "this quarter", "this year", "last N days", "last N weeks", "last N months", ' +
  '"last N quarters", "last N years", "from N days ago to now"';

function invalid(text: string): AppError {
  const message = `Cannot parse the date range '${text.slice(0, 100)}': use ${DATE_RANGE_FORMS}`;
  return new AppError('validation_failed', message, [{ path: 'query', message }]);
}

/** A point parsed by chrono (`now`, `7 days ago`, `2025-03-01`), read in the zone; null when the text is none. */
function chronoPoint(text: string, zone: string, now: Date): { at: moment.Moment; exact: Unit } | null {
  // chrono reads and writes local wall-clock fields: hand it the zone's wall clock as if local.
  const wall = new Date(moment(now).tz(zone).format(LOCAL));
  const [result] = chrono.parse(text, wall);
  // The whole text must be the date: chrono would otherwise pick a date out of any sentence.
  if (!result || result.index !== 0 || result.text.length !== text.length) return null;
  const c = result.start;
  const at = moment.tz(
    { year: c.get('year') as number, month: (c.get('month') as number) - 1, date: c.get('day') as number, hour: c.get('hour') as number, minute: c.get('minute') as number, second: c.get('second') as number, millisecond: c.get('millisecond') as number },
    zone,
  );
  // A point keeps the precision its text names; otherwise it stands for its whole day (as in Cube).
  const exact = (['second', 'minute', 'hour'] as const).find((u) => text.includes(u)) ?? 'day';
  return { at, exact };
}

/**
 * A relative date range as Cube's gateway reads it (the current day is never part of `last N
 * days`; `this week` is the ISO week). Throws a 400 naming the text when it means nothing.
 */
export function relativeRange(input: string, zone: string, now = new Date()): [string, string] {
  const text = input.trim().toLowerCase();
  const current = () => moment(now).tz(zone);
  let range: [moment.Moment, moment.Moment];
  let m: RegExpExecArray | null;
  if ((m = THIS_LAST_NEXT.exec(text))) {
    const unit = m[2] as Unit;
    const shift = m[1] === 'last' ? -1 : m[1] === 'next' ? 1 : 0;
    range = [startOfUnit(current().add(shift, unit), unit), endOfUnit(current().add(shift, unit), unit)];
  } else if ((m = LAST_NEXT_N.exec(text))) {
    const [n, unit] = [Number(m[2]), m[3] as Unit];
    range = m[1] === 'last'
      ? [startOfUnit(current().subtract(n, unit), unit), endOfUnit(current().subtract(1, unit), unit)]
      : [startOfUnit(current().add(1, unit), unit), endOfUnit(current().add(n, unit), unit)];
  } else if (text === 'today' || text === 'yesterday' || text === 'tomorrow') {
    const shift = { today: 0, yesterday: -1, tomorrow: 1 }[text];
    range = [current().add(shift, 'day').startOf('day'), current().add(shift, 'day').endOf('day')];
  } else if ((m = /^from (.{1,50}) to (.{1,50})$/.exec(text))) {
    const from = chronoPoint(m[1] as string, zone, now);
    const to = chronoPoint(m[2] as string, zone, now);
    // The refusal names what the caller wrote, not our lower-cased copy.
    if (!from || !to) throw invalid(input.trim());
    const exact = (['second', 'minute', 'hour'] as const).find((u) => text.includes(u)) ?? 'day';
    range = [from.at.startOf(exact), to.at.endOf(exact)];
  } else {
    const point = chronoPoint(text, zone, now);
    if (!point) throw invalid(input.trim());
    range = [point.at.clone().startOf(point.exact), point.at.clone().endOf(point.exact)];
  }
  const [start, end] = range.map((d) => d.format(LOCAL)) as [string, string];
  if (start > end) throw invalid(input);
  return [start, end];
}

/**
 * An absolute value as a local timestamp of the zone: a calendar date is its first (or, `end`,
 * last) millisecond; a timestamp with `Z` or an offset is that instant seen in the zone; a
 * timestamp without one is already local.
 */
export function absolutePoint(value: string, zone: string, end = false): string {
  if (DATE_ONLY.test(value)) return `${value}T${end ? '23:59:59.999' : '00:00:00.000'}`;
  const normalized = value.replace(' ', 'T');
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/.test(normalized)) return moment.parseZone(normalized).tz(zone).format(LOCAL);
  return moment.utc(normalized).format(LOCAL);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `YYYY-MM-DD` (four, two and two digits) is a day of the proleptic Gregorian calendar:
 * what moment's strict `YYYY-MM-DD` parse accepts, without its cost (a third of the cube layer's
 * CPU for a small query; test/cube/dates.test.ts compares the two on every day of 15 years).
 */
export function realDay(date: string): boolean {
  const [year, month, day] = [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** Whether an absolute value names a real calendar day (and time of day). */
export function validAbsolute(value: string): boolean {
  if (!ABSOLUTE.test(value) || !realDay(value.slice(0, 10))) return false;
  return value.length === 10 || moment.parseZone(value.replace(' ', 'T'), moment.ISO_8601).isValid();
}

/** A range value of Cube's query (`'last week'`, `['2025-01-01']`, `['2025-01-01', '2025-01-31']`) as two local timestamps. */
export function resolveRange(value: string | string[], zone: string, now = new Date()): [string, string] {
  const bad = (typeof value === 'string' ? [value] : value).find((v) => ABSOLUTE.test(v) && !validAbsolute(v));
  if (bad !== undefined) throw new AppError('validation_failed', `Not a valid date: ${bad}`, [{ path: 'query', message: `Not a valid date: ${bad}` }]);
  if (typeof value === 'string') return ABSOLUTE.test(value) ? [absolutePoint(value, zone), absolutePoint(value, zone, true)] : relativeRange(value, zone, now);
  const [from, to = from] = value as [string, string?];
  const start = ABSOLUTE.test(from) ? absolutePoint(from, zone) : relativeRange(from, zone, now)[0];
  const finish = ABSOLUTE.test(to as string) ? absolutePoint(to as string, zone, true) : relativeRange(to as string, zone, now)[1];
  return [start, finish];
}
