import pg from "pg";
import { PostgresQuery } from "@cubejs-backend/schema-compiler";
import { AppError } from "../errors.js";
import { filterMembers } from "./filters.js";
import { totalOrder } from "./merge.js";
const NUMERIC = /* @__PURE__ */ new Set(["number", "count", "count_distinct", "count_distinct_approx", "sum", "avg", "min", "max", "running_total"]);
const cubeOf = (member) => member.slice(0, member.indexOf("."));
const RAW_TIME = /* @__PURE__ */ new Set([1082, 1114, 1184]);
const types = { getTypeParser: (oid, format) => RAW_TIME.has(oid) ? (v) => v : pg.types.getTypeParser(oid, format) };
function timeCell(value) {
  if (value === null) return null;
  const [date, time = "00:00:00"] = value.replace("T", " ").split(" ");
  const [hms = "00:00:00", fraction = ""] = time.replace(/[+-]\d{2}(:?\d{2})?$/, "").split(".");
  return `${date}T${hms}.${(fraction + "000").slice(0, 3)}`;
}
function convert(value, column) {
  if (value === null || value === void 0) return null;
  if (column.kind === "time" || column.type === "time") return timeCell(String(value));
  if (NUMERIC.has(column.type)) return Number(value);
  if (typeof value === "boolean" || typeof value === "number") return value;
  return String(value);
}
function ownTimeDimensions(cube, q) {
  const own = /* @__PURE__ */ new Map();
  for (const c of cube.meta) {
    for (const m of c.measures) {
      const time = m.meta?.time_dimension;
      if (typeof time === "string") own.set(m.name, time);
    }
  }
  return q.measures.flatMap((m) => {
    const mine = own.get(m);
    return q.timeDimensions.filter((t) => mine && t.dimension !== mine && cubeOf(t.dimension) !== cubeOf(m)).map((t) => `${m} cannot be grouped or filtered by ${t.dimension}, a time dimension of ${cubeOf(t.dimension)}: use its own time dimension ${mine}`);
  });
}
function planError(error, cube, q) {
  const message = String(error?.message);
  const hints = /join path/i.test(message) ? ownTimeDimensions(cube, q) : [];
  if (hints.length > 0) return new AppError("validation_failed", `Query cannot be planned: ${hints.join("; ")}`, hints.map((hint) => ({ path: "query.timeDimensions", message: hint })));
  if (error?.type === "UserError" || /join path|Filter for/i.test(message)) {
    return new AppError("validation_failed", `Query cannot be planned: ${message}`, [{ path: "query", message }]);
  }
  return new AppError("internal", "Query planning failed");
}
const PLAN_CACHE_SIZE = 1e3;
const caches = /* @__PURE__ */ new WeakMap();
function remembered(cube, key, make) {
  let cache = caches.get(cube);
  if (!cache) caches.set(cube, cache = /* @__PURE__ */ new Map());
  if (cache.has(key)) {
    const hit = cache.get(key);
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > PLAN_CACHE_SIZE) cache.delete(cache.keys().next().value);
  return made;
}
function plan(cube, tenantId, q, fact, order) {
  const key = JSON.stringify(["plan", tenantId, fact, order ?? null, q]);
  return { ...remembered(cube, key, () => planned(cube, tenantId, q, fact, order)), query: q };
}
function planned(cube, tenantId, q, fact, order) {
  const chosen = order ?? totalOrder(q);
  const options = {
    measures: [...q.measures],
    dimensions: [...q.dimensions],
    segments: [...q.segments],
    timeDimensions: q.timeDimensions.map((t) => ({ dimension: t.dimension, granularity: t.granularity, dateRange: t.dateRange ? [...t.dateRange] : void 0 })),
    filters: structuredClone(q.filters),
    order: chosen.map((o) => ({ id: o.id, desc: o.desc })),
    // No LIMIT in the SQL (Cube renders `rowLimit`, not `limit`): a LIMIT far above the rows turns
    // the deployments query onto a nested loop 30 times slower. The caller pages the rows.
    timezone: q.timezone,
    ungrouped: q.ungrouped,
    useNativeSqlPlanner: false,
    contextSymbols: { securityContext: { tenant_id: tenantId } }
  };
  let query;
  let built;
  try {
    query = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler }, options);
    built = query.buildSqlAndParams();
  } catch (error) {
    throw planError(error, cube, q);
  }
  const internal = query;
  const columns = [
    ...internal.dimensions.map((d) => ({ alias: d.unescapedAliasName(), keys: [d.dimension], kind: "dimension", type: cube.members[d.dimension]?.type ?? "string" })),
    ...internal.timeDimensions.filter((t) => t.granularity).map((t) => ({ alias: t.unescapedAliasName(), keys: [`${t.dimension}.${t.granularity}`, t.dimension], kind: "time", type: "time" })),
    ...internal.measures.map((m) => ({ alias: m.unescapedAliasName(), keys: [m.measure], kind: "measure", type: cube.members[m.measure]?.type ?? "number" }))
  ];
  return { cube: fact, sql: built[0], params: built[1], columns, query: q };
}
function planQueries(cube, tenantId, q) {
  const facts = [...new Set(q.measures.map(cubeOf))];
  if (facts.length <= 1) return [plan(cube, tenantId, q, facts[0] ?? null)];
  if (q.ungrouped) throw new AppError("validation_failed", "An ungrouped query reads the measures of one cube", [{ path: "query.measures", message: "An ungrouped query reads the measures of one cube" }]);
  const problems = [];
  const factSet = new Set(facts);
  for (const d of q.dimensions) if (factSet.has(cubeOf(d))) problems.push(`dimension ${d} belongs to one of several measure cubes; group by shared dimensions (teams, projects, people)`);
  for (const s of q.segments) if (factSet.has(cubeOf(s))) problems.push(`segment ${s} belongs to one of several measure cubes`);
  const grains = new Set(q.timeDimensions.filter((t) => t.granularity).map((t) => t.granularity));
  if (grains.size > 1) problems.push("a query over several measure cubes uses one granularity");
  const withGrain = q.timeDimensions.filter((t) => t.granularity);
  for (const f of q.filters) {
    const owners = new Set(filterMembers(f).map(cubeOf).filter((c) => factSet.has(c)));
    if (owners.size > 1) problems.push("a filter group spans several measure cubes");
    if (filterMembers(f).some((m) => cube.members[m]?.kind === "measure")) problems.push("measure filters are not supported across several measure cubes");
  }
  if (withGrain.length > 0) {
    if (withGrain.some((t) => !factSet.has(cubeOf(t.dimension)))) problems.push("across several measure cubes, group by a time dimension of each measure cube");
    for (const fact of facts) {
      if (withGrain.filter((t) => cubeOf(t.dimension) === fact).length !== 1) problems.push(`add one time dimension of ${fact} with granularity ${[...grains][0]}`);
    }
  }
  if (problems.length > 0) throw new AppError("validation_failed", problems.join("; "), problems.map((message) => ({ path: "query", message })));
  const mine = (member, fact) => !factSet.has(cubeOf(member)) || cubeOf(member) === fact;
  return facts.map((fact) => {
    const sub = {
      ...q,
      measures: q.measures.filter((m) => cubeOf(m) === fact),
      timeDimensions: q.timeDimensions.filter((t) => mine(t.dimension, fact)),
      filters: q.filters.filter((f) => filterMembers(f).every((m) => mine(m, fact)))
    };
    return plan(cube, tenantId, sub, fact, []);
  });
}
async function execute(db, p) {
  const result = await db.query({ text: p.sql, values: p.params, types });
  return result.rows.map((raw) => {
    const row = {};
    for (const column of p.columns) {
      const value = convert(raw[column.alias], column);
      for (const key of column.keys) row[key] = value;
    }
    return row;
  });
}
const TRANSFORMED_KEYS = [
  "sortedDimensions",
  "sortedTimeDimensions",
  "timeDimensions",
  "measures",
  "leafMeasures",
  "leafMeasureAdditive",
  "isAdditive",
  "hasNoTimeDimensionsWithoutGranularity",
  "allFiltersWithinSelectedDimensions",
  "hasCumulativeMeasures",
  "hasMultipliedMeasures",
  "measureToLeafMeasures",
  "ungrouped"
];
function canUseForm(cube, tenantId, q) {
  const form = remembered(cube, JSON.stringify(["form", tenantId, q]), () => transformedForm(cube, tenantId, q));
  return form === null ? null : structuredClone(form);
}
function transformedForm(cube, tenantId, q) {
  try {
    const query = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler }, {
      measures: [...q.measures],
      dimensions: [...q.dimensions],
      segments: [...q.segments],
      timeDimensions: q.timeDimensions.map((t) => ({ dimension: t.dimension, granularity: t.granularity, dateRange: t.dateRange ? [...t.dateRange] : void 0 })),
      filters: structuredClone(q.filters),
      timezone: q.timezone,
      ungrouped: q.ungrouped,
      useNativeSqlPlanner: false,
      contextSymbols: { securityContext: { tenant_id: tenantId } }
    });
    const form = query.preAggregations.canUseTransformedQuery();
    return JSON.parse(JSON.stringify(Object.fromEntries(TRANSFORMED_KEYS.filter((k) => k in form).map((k) => [k, form[k]]))));
  } catch {
    return null;
  }
}
export {
  canUseForm,
  execute,
  plan,
  planQueries
};
