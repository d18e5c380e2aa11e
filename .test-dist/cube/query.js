import { z } from "zod";
import { AppError } from "../errors.js";
import { zodDetails } from "../http/route.js";
import { checkJsonValue, INPUT_LIMITS } from "../shared/limits.js";
import { canonicalZone, resolveRange } from "./dates.js";
import { checkFilter, OPERATORS } from "./filters.js";
const GRANULARITIES = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
const RESPONSE_FORMATS = ["default", "compact", "columnar"];
const DEFAULT_LIMIT = 1e4;
const MAX_LIMIT = 5e4;
const MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,99}\.[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const ORDER_MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,99}\.[A-Za-z_][A-Za-z0-9_]{0,99}(\.[a-z]{1,10})?$/;
const Member = z.string().max(201).regex(MEMBER, "Not a member name (cube.member)");
const DateText = z.string().min(1).max(100);
const DateRange = z.union([DateText, z.array(DateText).min(1).max(2)]);
const Value = z.union([z.string().max(1e3), z.number().finite(), z.boolean(), z.null()]).transform((v) => v === null ? null : String(v));
const MemberFilter = z.strictObject({
  member: Member.optional(),
  dimension: Member.optional(),
  operator: z.enum(OPERATORS),
  values: z.array(Value).max(1e3).optional()
});
const Filter = z.lazy(
  () => z.union([MemberFilter, z.strictObject({ or: z.array(Filter).min(1).max(50) }), z.strictObject({ and: z.array(Filter).min(1).max(50) })])
);
const OrderMember = z.string().max(212).regex(ORDER_MEMBER, "Not a member name (cube.member or cube.time.granularity)");
const Direction = z.enum(["asc", "desc", "none"]);
const Order = z.union([z.record(OrderMember, Direction), z.array(z.tuple([OrderMember, Direction])).max(50)]);
const CubeQuery = z.strictObject({
  measures: z.array(Member).max(50).default([]),
  dimensions: z.array(Member).max(50).default([]),
  segments: z.array(Member).max(20).default([]),
  timeDimensions: z.array(
    z.strictObject({
      dimension: Member,
      granularity: z.enum(GRANULARITIES).nullable().optional(),
      dateRange: DateRange.optional(),
      compareDateRange: z.array(DateRange).min(1).max(10).optional()
    })
  ).max(5).default([]),
  filters: z.array(Filter).max(50).default([]),
  order: Order.optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: z.number().int().min(0).max(1e6).optional(),
  timezone: z.string().max(64).optional(),
  total: z.boolean().optional(),
  ungrouped: z.boolean().optional(),
  renewQuery: z.boolean().optional(),
  responseFormat: z.enum(RESPONSE_FORMATS).optional()
});
const toStart = (value) => value.length === 10 ? `${value}T00:00:00.000` : value;
const toEnd = (value) => value.length === 10 ? `${value}T23:59:59.999` : value;
const FORBIDDEN_KEYS = /* @__PURE__ */ new Set(["__proto__", "constructor", "prototype"]);
function preScan(value, path, details) {
  if (Array.isArray(value)) return value.forEach((v, i) => preScan(v, `${path}.${i}`, details));
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) details.push({ path: `${path}.${key}`, message: `Forbidden key ${key}` });
    const v = value[key];
    if (key === "operator" && path.startsWith("query.filters") && !OPERATORS.includes(v)) {
      details.push({ path: `${path}.operator`, message: `Unknown operator ${String(v).slice(0, 100)}` });
    }
    preScan(v, `${path}.${key}`, details);
  }
}
function invalidQuery(details, withPaths = false) {
  const message = details.map((d) => withPaths ? `${d.path}: ${d.message}` : d.message).join("; ");
  return new AppError("validation_failed", message, details);
}
function parseQuery(input) {
  if (input === void 0 || input === null || typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 0) {
    throw new AppError("validation_failed", "Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid", [
      { path: "query", message: "A query needs at least one measure or dimension (or a time dimension with a granularity)" }
    ]);
  }
  const early = checkJsonValue(input, INPUT_LIMITS.jsonDepth, "query");
  if (early.length > 0) throw invalidQuery(early, true);
  preScan(input, "query", early);
  if (early.length > 0) throw invalidQuery(early);
  const parsed = CubeQuery.safeParse(input);
  if (!parsed.success) throw invalidQuery(zodDetails(parsed.error, "query", input), true);
  return parsed.data;
}
function validateQuery(cube, input, now = /* @__PURE__ */ new Date()) {
  return checkQuery(cube, parseQuery(input), now);
}
function checkQuery(cube, query, now = /* @__PURE__ */ new Date()) {
  const withGrain = query.timeDimensions.filter((t) => t.granularity);
  if (query.measures.length === 0 && query.dimensions.length === 0 && withGrain.length === 0) {
    throw new AppError("validation_failed", "Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid", [
      { path: "query", message: "A query needs at least one measure or dimension (or a time dimension with a granularity)" }
    ]);
  }
  const details = [];
  const zone = query.timezone === void 0 ? "UTC" : canonicalZone(query.timezone);
  if (zone === null) details.push({ path: "query.timezone", message: `Unknown time zone ${query.timezone}: use an IANA name such as Europe/Amsterdam` });
  const kindOf = (name) => Object.hasOwn(cube.members, name) ? cube.members[name] : void 0;
  const expect = (name, path, kinds, timeOnly = false) => {
    const member = kindOf(name);
    if (!member) details.push({ path, message: `Unknown member ${name}` });
    else if (!kinds.includes(member.kind)) details.push({ path, message: `${name} is a ${member.kind}, not a ${kinds.join(" or ")}` });
    else if (timeOnly && member.type !== "time") details.push({ path, message: `${name} is not a time dimension` });
  };
  query.measures.forEach((m, i) => expect(m, `query.measures.${i}`, ["measure"]));
  query.dimensions.forEach((d, i) => expect(d, `query.dimensions.${i}`, ["dimension"]));
  query.segments.forEach((s, i) => expect(s, `query.segments.${i}`, ["segment"]));
  const timeDimensions = query.timeDimensions.map((t, i) => {
    expect(t.dimension, `query.timeDimensions.${i}.dimension`, ["dimension"], true);
    if (t.compareDateRange) details.push({ path: `query.timeDimensions.${i}.compareDateRange`, message: "compareDateRange is a query type of its own: send it to /load with queryType=multi" });
    let dateRange;
    if (t.dateRange !== void 0 && zone) {
      try {
        dateRange = resolveRange(t.dateRange, zone, now);
        if (dateRange[0] > dateRange[1]) details.push({ path: `query.timeDimensions.${i}.dateRange`, message: "The date range is reversed (from after to)" });
      } catch (error) {
        details.push({ path: `query.timeDimensions.${i}.dateRange`, message: error.message });
      }
    }
    return { dimension: t.dimension, ...t.granularity ? { granularity: t.granularity } : {}, ...dateRange ? { dateRange } : {} };
  });
  const filters = query.filters.map((f, i) => checkFilter(cube, f, `query.filters.${i}`, zone ?? "UTC", details));
  if (withGrain.length > 0) {
    query.measures.forEach((m, i) => {
      if (kindOf(m)?.window) details.push({ path: `query.measures.${i}`, message: `${m} is a rate over the query's whole date range, not per ${withGrain[0].granularity}: ask for it without a granularity (once per period if you need a series)` });
    });
  }
  const orderInput = Array.isArray(query.order) ? query.order : Object.entries(query.order ?? {});
  const chosen = /* @__PURE__ */ new Set([...query.measures, ...query.dimensions, ...query.timeDimensions.map((t) => t.dimension)]);
  const hiddenMeasures = [];
  const order = orderInput.flatMap(([name, dir], i) => {
    const path = `query.order.${i}`;
    const parts = name.split(".");
    const base = parts.length === 3 ? `${parts[0]}.${parts[1]}` : name;
    const member = kindOf(base);
    if (!member || member.kind === "segment" || parts.length === 3 && member.type !== "time") {
      details.push({ path, message: member ? `Order by ${name}: not a measure, dimension or time dimension` : `Unknown member ${base}` });
      return [];
    }
    if (dir === "none") return [];
    if (parts.length === 3) {
      return query.timeDimensions.some((t) => t.dimension === base && t.granularity === parts[2]) ? [{ id: base, desc: dir === "desc" }] : [];
    }
    if (!chosen.has(name)) {
      if (member.kind !== "measure") return [];
      hiddenMeasures.push(name);
    }
    return [{ id: name, desc: dir === "desc" }];
  });
  if (details.length > 0) throw invalidQuery(details);
  return {
    measures: query.measures,
    dimensions: query.dimensions,
    segments: query.segments,
    timeDimensions,
    filters,
    order,
    limit: query.limit,
    ...query.offset !== void 0 ? { offset: query.offset } : {},
    timezone: zone,
    total: query.total === true,
    ungrouped: query.ungrouped === true,
    hiddenMeasures: [...new Set(hiddenMeasures)],
    ...query.responseFormat ? { responseFormat: query.responseFormat } : {}
  };
}
export {
  CubeQuery,
  DEFAULT_LIMIT,
  GRANULARITIES,
  MAX_LIMIT,
  OPERATORS,
  RESPONSE_FORMATS,
  checkQuery,
  invalidQuery,
  parseQuery,
  toEnd,
  toStart,
  validateQuery
};
