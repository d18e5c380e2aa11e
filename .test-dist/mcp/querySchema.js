import { z } from "zod";
import { DATE_RANGE_FORMS } from "../cube/dates.js";
import { GRANULARITIES, OPERATORS } from "../cube/query.js";
const MCP_ROW_CAP = 1e3;
const nonEmpty = (names) => names.length > 0 ? names : ["none"];
const memberEnum = (names, kind, lister) => z.enum(nonEmpty(names), { error: (issue) => `Unknown ${kind} ${String(issue.input).slice(0, 200)} (${lister} lists them)` });
const DATE_RANGE_HELP = `Inclusive, in UTC: ${DATE_RANGE_FORMS}. Months are calendar months in UTC.`;
function filterError(issue) {
  if (issue.code !== "invalid_union" || !issue.errors) return void 0;
  const meant = typeof issue.input === "object" && issue.input !== null && "or" in issue.input ? 1 : 0;
  const problems = (issue.errors[meant] ?? []).map((e) => e.path.length > 0 ? `${e.path.map(String).join(".")}: ${e.message}` : e.message);
  return problems.length > 0 ? problems.join("; ") : void 0;
}
const schemas = /* @__PURE__ */ new WeakMap();
function querySchema(catalogue) {
  let schema = schemas.get(catalogue);
  if (!schema) schemas.set(catalogue, schema = buildQuerySchema(catalogue));
  return schema;
}
function buildQuerySchema(catalogue) {
  const measures = memberEnum(catalogue.measures.map((m) => m.name), "measure", "list_measures");
  const dimensions = memberEnum(catalogue.dimensions.map((d) => d.name), "dimension", "list_dimensions");
  const times = memberEnum(catalogue.dimensions.filter((d) => d.type === "time").map((d) => d.name), "time dimension", "list_dimensions");
  const members = memberEnum([...catalogue.measures.map((m) => m.name), ...catalogue.dimensions.map((d) => d.name)], "member", "list_measures or list_dimensions");
  const dateRange = z.union([z.array(z.string().max(40)).length(2), z.string().max(60)], { error: () => `Not a date range: use ${DATE_RANGE_FORMS}` }).describe(DATE_RANGE_HELP);
  const memberFilter = z.strictObject({
    member: members.describe("The measure or dimension to filter on"),
    operator: z.enum(OPERATORS, { error: (issue) => `Unknown operator ${String(issue.input).slice(0, 100)}: use one of ${OPERATORS.join(", ")}` }).describe(
      "equals/notEquals (any of the values), contains/notContains/startsWith/notStartsWith/endsWith/notEndsWith (text), gt/gte/lt/lte (numbers), set/notSet (no values), inDateRange/notInDateRange (two dates), onTheDate (one date: that day), beforeDate/beforeOrOnDate/afterDate/afterOrOnDate (one date). Dimensions with format id take equals, notEquals, set or notSet only."
    ),
    values: z.array(z.string().max(1e3)).max(1e3).optional().describe("Values as strings (numbers and booleans too); omit for set and notSet")
  });
  return z.strictObject({
    measures: z.array(measures).max(50).optional().describe("Measures to compute (list_measures describes each). Measures of several cubes need a time dimension of each cube with the same granularity."),
    dimensions: z.array(dimensions).max(50).optional().describe("Dimensions to group by: those of the measures' cube, or of teams, projects, people (list_dimensions tells which go with a measure)"),
    timeDimensions: z.array(
      z.strictObject({
        dimension: times.describe("A time dimension; the measure's own (list_measures: timeDimension) decides which month a fact counts in"),
        granularity: z.enum(GRANULARITIES).optional().describe("Group by this calendar unit (UTC); omit to only filter by the date range"),
        dateRange: dateRange.optional()
      })
    ).max(5).optional().describe("Time grouping and date range"),
    filters: z.array(z.union([memberFilter, z.strictObject({ or: z.array(memberFilter).min(1).max(50).describe("Any of these filters") })], { error: filterError })).max(50).optional().describe('All of these filters (an "or" item holds alternatives)'),
    order: z.array(z.strictObject({ member: members.describe("A measure or dimension of the query (a measure it does not select is computed to sort on; a dimension it does not select is left out of the order)"), direction: z.enum(["asc", "desc"]).describe("asc or desc") })).max(50).optional().describe("Sort order, first key first; default: by time ascending, else by the first measure descending"),
    limit: z.number().int().min(1).max(MCP_ROW_CAP).optional().describe(`At most this many rows (at most ${MCP_ROW_CAP}, the default)`),
    offset: z.number().int().min(0).max(1e6).optional().describe("Skip this many rows first (paging)")
  });
}
function toCubeQuery(input) {
  const { order, ...rest } = input;
  return Object.fromEntries(
    Object.entries({ ...rest, ...order ? { order: order.map((o) => [o.member, o.direction]) } : {} }).filter(([, v]) => v !== void 0)
  );
}
export {
  DATE_RANGE_HELP,
  MCP_ROW_CAP,
  memberEnum,
  querySchema,
  toCubeQuery
};
