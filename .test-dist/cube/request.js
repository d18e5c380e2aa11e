import { AppError } from "../errors.js";
import { checkQuery, parseQuery, toEnd, toStart } from "./query.js";
const MAX_QUERIES = 10;
const refuse = (message, path = "query") => new AppError("validation_failed", message, [{ path, message }]);
function parseQueryInput(input) {
  if (input === void 0 || input === null || input === "" || input === "undefined") throw refuse("Query param is required");
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch {
    throw refuse("Unable to decode query param as JSON");
  }
}
function parseLoadRequest(cube, input, now = /* @__PURE__ */ new Date()) {
  const raw = parseQueryInput(input);
  if (Array.isArray(raw)) {
    if (raw.length === 0 || raw.length > MAX_QUERIES) throw refuse(`A data blending query is 1 to ${MAX_QUERIES} queries`);
    const queries2 = raw.map((q) => checkQuery(cube, parseQuery(q), now));
    const grains = [...new Set(queries2.map((q) => q.timeDimensions[0]?.granularity).filter(Boolean))];
    if (grains.length > 1) throw refuse("Data blending query granularities must match");
    if (grains.length === 0) throw refuse("Data blending query without granularity is not supported: give each query a time dimension with a granularity first");
    return { queryType: "blendingQuery", queries: queries2 };
  }
  const parsed = parseQuery(raw);
  const compared = parsed.timeDimensions.filter((t) => t.compareDateRange);
  if (compared.length === 0) return { queryType: "regularQuery", queries: [checkQuery(cube, parsed, now)] };
  if (compared.length > 1) throw refuse("compareDateRange is allowed on one time dimension only");
  const [target] = compared;
  if (target.dateRange !== void 0) throw refuse("A time dimension has either dateRange or compareDateRange");
  const queries = (target.compareDateRange ?? []).map(
    (range) => checkQuery(cube, { ...parsed, timeDimensions: parsed.timeDimensions.map((t) => t === target ? { dimension: t.dimension, granularity: t.granularity, dateRange: range } : t) }, now)
  );
  return { queryType: "compareDateRangeQuery", queries };
}
function normalizedQuery(q) {
  return {
    measures: q.measures,
    dimensions: q.dimensions,
    segments: q.segments,
    timeDimensions: q.timeDimensions.map((t) => ({
      dimension: t.dimension,
      ...t.granularity ? { granularity: t.granularity } : {},
      ...t.dateRange ? { dateRange: [toStart(t.dateRange[0]), toEnd(t.dateRange[1])] } : {}
    })),
    filters: q.filters,
    order: q.order.map((o) => [o.id, o.desc ? "desc" : "asc"]),
    limit: q.limit,
    ...q.offset !== void 0 ? { offset: q.offset } : {},
    ...q.total ? { total: true } : {},
    ...q.ungrouped ? { ungrouped: true } : {},
    timezone: q.timezone,
    rowLimit: q.limit,
    queryType: "regularQuery",
    // Cube echoes it, and the client reads the echo to know how to unpack `data`.
    ...q.responseFormat ? { responseFormat: q.responseFormat } : {}
  };
}
function packRows(format, rows) {
  if (format !== "compact" && format !== "columnar") return rows;
  const members = rows.length > 0 ? Object.keys(rows[0]) : [];
  if (format === "compact") return { members, dataset: rows.map((row) => members.map((m) => row[m] ?? null)) };
  return { members, columns: members.map((m) => rows.map((row) => row[m] ?? null)) };
}
function pivotQuery(request) {
  const [first] = request.queries;
  if (request.queryType === "blendingQuery") {
    const union = (key) => [...new Set(request.queries.flatMap((q) => q[key]))];
    return { measures: union("measures"), dimensions: union("dimensions"), timeDimensions: [{ dimension: "time", granularity: first.timeDimensions[0]?.granularity }], queryType: "blendingQuery" };
  }
  const normalized = normalizedQuery(first);
  if (request.queryType === "compareDateRangeQuery") return { ...normalized, dimensions: ["compareDateRange", ...first.dimensions], queryType: "compareDateRangeQuery" };
  return normalized;
}
function labelRows(queryType, q, rows) {
  if (queryType === "compareDateRangeQuery") {
    const range = q.timeDimensions.find((t) => t.dateRange)?.dateRange;
    const label = `${toStart(range[0])} - ${toEnd(range[1])}`;
    return rows.map((row) => ({ ...row, compareDateRange: label }));
  }
  if (queryType === "blendingQuery") {
    const td = q.timeDimensions[0];
    return rows.map((row) => ({ ...row, [`time.${td.granularity}`]: row[`${td.dimension}.${td.granularity}`] ?? null }));
  }
  return rows;
}
export {
  labelRows,
  normalizedQuery,
  packRows,
  parseLoadRequest,
  parseQueryInput,
  pivotQuery
};
