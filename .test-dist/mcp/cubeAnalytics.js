import { loadCube } from "../cube/compiler.js";
import { cubeLoad, cubeMeta, cubeSql } from "../cube/service.js";
import { memberFormat } from "../cube/compiler.js";
import { AppError } from "../errors.js";
import { zodDetails } from "../http/route.js";
import { baselineRows, BaselineWindow, checkWindow, resolveWindow } from "../exports/baseline.js";
import { teamBenchmark } from "../benchmarks/comparison.js";
import { teamOssBenchmark } from "../benchmarks/service.js";
import { catalogueOf } from "./catalogue.js";
import { listFacts } from "../facts/service.js";
const Window = BaselineWindow.superRefine(checkWindow);
function checkedWindow(window) {
  const parsed = Window.safeParse(window);
  if (!parsed.success) throw new AppError("validation_failed", "Invalid window", zodDetails(parsed.error));
  return parsed.data;
}
function member(m) {
  const format = memberFormat(m);
  return {
    name: m.name,
    type: m.type,
    // Cube prefixes titles with the cube's own; the short title reads better next to the cube.
    ...m.shortTitle ?? m.title ? { title: m.shortTitle ?? m.title } : {},
    ...m.description ? { description: m.description } : {},
    // An assistant needs to know which dimensions take only UUIDs (anything else is a 400).
    ...format ? { format } : {}
  };
}
function capped(input, rowCap) {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { query: input, cap: rowCap };
  const asked = input.limit;
  if (asked !== void 0 && typeof asked !== "number") return { query: input, cap: rowCap };
  const cap = Math.min(typeof asked === "number" && asked > 0 ? asked : rowCap, rowCap);
  return { query: { ...input, limit: cap + 1 }, cap };
}
function cubeAnalytics(pool) {
  return {
    async catalogue() {
      return catalogueOf(await loadCube());
    },
    async metadata() {
      const { cubes } = await cubeMeta();
      return cubes.map((c) => ({
        name: c.name,
        ...c.title ? { title: c.title } : {},
        ...c.description ? { description: c.description } : {},
        measures: c.measures.filter((m) => m.public !== false).map(member),
        dimensions: c.dimensions.filter((d) => d.public !== false).map(member)
      }));
    },
    async query(tenantId, input, rowCap) {
      const { query, cap } = capped(input, rowCap);
      const { data } = await cubeLoad(pool, { tenantId }, query);
      return { rows: data.slice(0, cap), truncated: data.length > cap };
    },
    async sql(tenantId, input) {
      const { statements } = await cubeSql({ tenantId }, input);
      return { statements };
    },
    async teamBaseline(tenantId, window) {
      return baselineRows(pool, tenantId, resolveWindow(checkedWindow(window)));
    },
    async dimensionValues(tenantId, dimension, { match, prefix, limit }) {
      const filters = [{ member: dimension, operator: "set" }];
      if (match) filters.push({ member: dimension, operator: prefix ? "startsWith" : "contains", values: [match] });
      const { data } = await cubeLoad(pool, { tenantId }, { dimensions: [dimension], filters, order: [[dimension, "asc"]], limit: limit + 1 });
      const values = data.map((row) => row[dimension]).filter((v) => v !== null).map(String);
      return { values: values.slice(0, limit), truncated: values.length > limit };
    },
    async teamBenchmark(tenantId, team, window) {
      return teamBenchmark(pool, tenantId, team, checkedWindow(window));
    },
    async teamOssBenchmark(tenantId, team, window) {
      return teamOssBenchmark(pool, tenantId, team, checkedWindow(window));
    },
    async facts(tenantId, scope) {
      return listFacts(pool, tenantId, { ...scope, ...checkedWindow({ from: scope.from, to: scope.to }) });
    }
  };
}
export {
  cubeAnalytics
};
