import * as chrono from "chrono-node";
import moment from "moment-timezone";
import { AppError } from "../errors.js";
const LOCAL = "YYYY-MM-DDTHH:mm:ss.SSS";
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
const UNIT = `(${UNITS.join("|")})s?`;
const SAFE_ZONE = /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/;
function canonicalZone(name) {
  if (!SAFE_ZONE.test(name)) return null;
  const zone = moment.tz.zone(name);
  return zone && SAFE_ZONE.test(zone.name) ? zone.name : null;
}
const startOfUnit = (m, unit) => m.startOf(unit === "week" ? "isoWeek" : unit);
const endOfUnit = (m, unit) => m.endOf(unit === "week" ? "isoWeek" : unit);
const DATE_RANGE_FORMS = '["YYYY-MM-DD", "YYYY-MM-DD"] (or ISO timestamps), a single date "YYYY-MM-DD" (that whole day), or a relative range as one string: "today", "yesterday", "this week", "this month", "this quarter", "this year", "last N days", "last N weeks", "last N months", "last N quarters", "last N years", "from N days ago to now"';
function invalid(text) {
  const message = `Cannot parse the date range '${text.slice(0, 100)}': use ${DATE_RANGE_FORMS}`;
  return new AppError("validation_failed", message, [{ path: "query", message }]);
}
function chronoPoint(text, zone, now) {
  const wall = new Date(moment(now).tz(zone).format(LOCAL));
  const [result] = chrono.parse(text, wall);
  if (!result || result.index !== 0 || result.text.length !== text.length) return null;
  const c = result.start;
  const at = moment.tz(
    { year: c.get("year"), month: c.get("month") - 1, date: c.get("day"), hour: c.get("hour"), minute: c.get("minute"), second: c.get("second"), millisecond: c.get("millisecond") },
    zone
  );
  const exact = ["second", "minute", "hour"].find((u) => text.includes(u)) ?? "day";
  return { at, exact };
}
function relativeRange(input, zone, now = /* @__PURE__ */ new Date()) {
  const text = input.trim().toLowerCase();
  const current = () => moment(now).tz(zone);
  let range;
  let m;
  if (m = new RegExp(`^(this|last|next) ${UNIT}$`).exec(text)) {
    const unit = m[2];
    const shift = m[1] === "last" ? -1 : m[1] === "next" ? 1 : 0;
    range = [startOfUnit(current().add(shift, unit), unit), endOfUnit(current().add(shift, unit), unit)];
  } else if (m = new RegExp(`^(last|next) (\\d{1,4}) ${UNIT}$`).exec(text)) {
    const [n, unit] = [Number(m[2]), m[3]];
    range = m[1] === "last" ? [startOfUnit(current().subtract(n, unit), unit), endOfUnit(current().subtract(1, unit), unit)] : [startOfUnit(current().add(1, unit), unit), endOfUnit(current().add(n, unit), unit)];
  } else if (text === "today" || text === "yesterday" || text === "tomorrow") {
    const shift = { today: 0, yesterday: -1, tomorrow: 1 }[text];
    range = [current().add(shift, "day").startOf("day"), current().add(shift, "day").endOf("day")];
  } else if (m = /^from (.{1,50}) to (.{1,50})$/.exec(text)) {
    const from = chronoPoint(m[1], zone, now);
    const to = chronoPoint(m[2], zone, now);
    if (!from || !to) throw invalid(input.trim());
    const exact = ["second", "minute", "hour"].find((u) => text.includes(u)) ?? "day";
    range = [from.at.startOf(exact), to.at.endOf(exact)];
  } else {
    const point = chronoPoint(text, zone, now);
    if (!point) throw invalid(input.trim());
    range = [point.at.clone().startOf(point.exact), point.at.clone().endOf(point.exact)];
  }
  const [start, end] = range.map((d) => d.format(LOCAL));
  if (start > end) throw invalid(input);
  return [start, end];
}
function absolutePoint(value, zone, end = false) {
  if (DATE_ONLY.test(value)) return `${value}T${end ? "23:59:59.999" : "00:00:00.000"}`;
  const normalized = value.replace(" ", "T");
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/.test(normalized)) return moment.parseZone(normalized).tz(zone).format(LOCAL);
  return moment.utc(normalized).format(LOCAL);
}
function validAbsolute(value) {
  if (!ABSOLUTE.test(value) || !moment.utc(value.slice(0, 10), "YYYY-MM-DD", true).isValid()) return false;
  return value.length === 10 || moment.parseZone(value.replace(" ", "T"), moment.ISO_8601).isValid();
}
function resolveRange(value, zone, now = /* @__PURE__ */ new Date()) {
  const bad = (typeof value === "string" ? [value] : value).find((v) => ABSOLUTE.test(v) && !validAbsolute(v));
  if (bad !== void 0) throw new AppError("validation_failed", `Not a valid date: ${bad}`, [{ path: "query", message: `Not a valid date: ${bad}` }]);
  if (typeof value === "string") return ABSOLUTE.test(value) ? [absolutePoint(value, zone), absolutePoint(value, zone, true)] : relativeRange(value, zone, now);
  const [from, to = from] = value;
  const start = ABSOLUTE.test(from) ? absolutePoint(from, zone) : relativeRange(from, zone, now)[0];
  const finish = ABSOLUTE.test(to) ? absolutePoint(to, zone, true) : relativeRange(to, zone, now)[1];
  return [start, finish];
}
export {
  ABSOLUTE,
  DATE_RANGE_FORMS,
  absolutePoint,
  canonicalZone,
  relativeRange,
  resolveRange,
  validAbsolute
};
