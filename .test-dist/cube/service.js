import { AppError } from "../errors.js";
import { loadCube } from "./compiler.js";
import { canUseForm, planQueries } from "./plan.js";
import { validateQuery } from "./query.js";
import { labelRows, normalizedQuery, parseLoadRequest, parseQueryInput, pivotQuery } from "./request.js";
import { loadRows } from "./run.js";
async function cubeMeta() {
  const cube = await loadCube();
  return { cubes: cube.meta };
}
function annotate(cube, q) {
  const byName = /* @__PURE__ */ new Map();
  for (const c of cube.meta) for (const m of [...c.measures, ...c.dimensions, ...c.segments]) byName.set(m.name, m);
  const pick = (name) => {
    const m = byName.get(name) ?? {};
    return { title: m.title, shortTitle: m.shortTitle, type: m.type, ...m.description ? { description: m.description } : {}, ...m.format ? { format: m.format } : {}, ...m.meta ? { meta: m.meta } : {} };
  };
  const annotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  for (const m of q.measures) annotation.measures[m] = pick(m);
  for (const d of q.dimensions) annotation.dimensions[d] = pick(d);
  for (const s of q.segments) annotation.segments[s] = pick(s);
  for (const t of q.timeDimensions) {
    if (!t.granularity) continue;
    annotation.timeDimensions[t.dimension] = pick(t.dimension);
    annotation.timeDimensions[`${t.dimension}.${t.granularity}`] = { ...pick(t.dimension), granularity: { name: t.granularity, title: t.granularity, interval: `1 ${t.granularity}` } };
  }
  return annotation;
}
const usedPreAggregations = (used) => used.length === 0 ? void 0 : Object.fromEntries(used.map((u) => [`cube_rollups.${u.cube}`, { preAggregationId: `${u.cube}.by_team_month`, type: "rollup", months: u.months }]));
async function loadOne(pool, cube, scope, queryType, q, requestId) {
  const { rows, total, rollups } = await loadRows(pool, cube, scope.tenantId, q);
  const used = usedPreAggregations(rollups);
  return {
    query: normalizedQuery(q),
    data: labelRows(queryType, q, rows),
    annotation: annotate(cube, q),
    lastRefreshTime: (/* @__PURE__ */ new Date()).toISOString(),
    total: q.total ? total : null,
    ...requestId ? { requestId } : {},
    ...used ? { usedPreAggregations: used } : {},
    transformedQuery: canUseForm(cube, scope.tenantId, q),
    dataSource: "default",
    dbType: "postgres",
    external: false,
    slowQuery: false
  };
}
async function cubeLoad(pool, scope, input, options = {}) {
  const cube = await loadCube();
  const q = validateQuery(cube, parseQueryInput(input));
  return loadOne(pool, cube, scope, "regularQuery", q, options.requestId);
}
function checkClient(request, multi) {
  if (request.queryType !== "regularQuery" && !multi) {
    const message = `'${request.queryType}' query type is not supported by the client. Please update the client (send queryType=multi).`;
    throw new AppError("validation_failed", message, [{ path: "queryType", message }]);
  }
}
async function cubeLoadRequest(pool, scope, input, options = {}) {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  checkClient(request, options.multi === true);
  for (const q of request.queries) planQueries(cube, scope.tenantId, q);
  const results = await Promise.all(request.queries.map((q) => loadOne(pool, cube, scope, request.queryType, q, options.requestId)));
  if (!options.multi) return results[0];
  return { queryType: request.queryType, results, pivotQuery: pivotQuery(request), slowQuery: false };
}
function sqlOf(cube, scope, q) {
  const plans = planQueries(cube, scope.tenantId, q);
  const first = plans[0];
  return {
    sql: { sql: [first.sql, first.params], order: q.order, dataSource: "default", external: false, preAggregations: [], rollupMatchResults: [] },
    statements: plans.map((p) => ({ cube: p.cube, sql: p.sql, params: p.params }))
  };
}
async function cubeSql(scope, input) {
  const cube = await loadCube();
  return sqlOf(cube, scope, validateQuery(cube, parseQueryInput(input)));
}
async function cubeSqlRequest(scope, input) {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  const answers = request.queries.map((q) => sqlOf(cube, scope, q));
  return request.queryType === "regularQuery" ? answers[0] : answers;
}
async function cubeDryRun(scope, input) {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  for (const q of request.queries) planQueries(cube, scope.tenantId, q);
  return {
    queryType: request.queryType,
    normalizedQueries: request.queries.map(normalizedQuery),
    pivotQuery: pivotQuery(request),
    queryOrder: request.queries.map((q) => Object.fromEntries(q.order.map((o) => [o.id, o.desc ? "desc" : "asc"]))),
    transformedQueries: request.queries.map((q) => canUseForm(cube, scope.tenantId, q))
  };
}
export {
  cubeDryRun,
  cubeLoad,
  cubeLoadRequest,
  cubeMeta,
  cubeSql,
  cubeSqlRequest,
  normalizedQuery,
  parseQueryInput
};
