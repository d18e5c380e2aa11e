import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { z } from "zod";
import { loadCube } from "../cube/compiler.js";
import { lastDay } from "../cube/months.js";
import { MAX_LIMIT, validateQuery } from "../cube/query.js";
import { loadRows } from "../cube/run.js";
import { AppError } from "../errors.js";
import { BaselineWindow, checkWindow, resolveWindow } from "../exports/baseline.js";
import { DRILL_MEASURES, drillOf } from "./definitions.js";
import { csvCells, KINDS, presentFact } from "./presenters.js";
const FACTS_PER_PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FactsQuery = BaselineWindow.extend({
  measure: z.string().min(1).max(201),
  team: z.string().min(1).max(200).optional(),
  page: z.coerce.number().int().min(1).max(1e5).default(1),
  format: z.enum(["json", "csv"], { message: "Must be json or csv" }).optional()
}).superRefine(checkWindow);
function requireDrill(measure) {
  const drill = drillOf(measure);
  if (drill) return drill;
  const message = `${measure} has no drill-through. Measures with one: ${DRILL_MEASURES.join(", ")}`;
  throw new AppError("validation_failed", message, [{ path: "query.measure", message }]);
}
function resolve(scope) {
  const drill = requireDrill(scope.measure);
  const { from, to } = resolveWindow(scope);
  return { drill, from, to, team: scope.team ?? null };
}
const cubeOf = (drill) => drill.kind;
function listQuery(r, dimensions, extra = []) {
  const cube = cubeOf(r.drill);
  const team = r.team === null ? [] : [{ member: UUID.test(r.team) ? "teams.id" : "teams.slug", operator: "equals", values: [UUID.test(r.team) ? r.team.toLowerCase() : r.team] }];
  const joined = r.team === null ? [] : cube === "issues" ? ["projects.id", "teams.id"] : ["teams.id"];
  return {
    dimensions: [.../* @__PURE__ */ new Set([`${cube}.id`, r.drill.time, ...dimensions, ...joined])],
    timeDimensions: [{ dimension: r.drill.time, dateRange: [`${r.from}-01`, lastDay(r.to)] }],
    filters: [...r.drill.flags.map((f) => ({ member: f.member, operator: "equals", values: [String(f.value)] })), ...team, ...extra],
    order: [[r.drill.time, "desc"], [`${cube}.id`, "asc"]],
    ungrouped: true,
    limit: MAX_LIMIT
  };
}
async function run(pool, cube, tenantId, query) {
  const { rows, total } = await loadRows(pool, cube, tenantId, validateQuery(cube, query), { rollups: false });
  if (total > MAX_LIMIT) throw new AppError("validation_failed", `The list has ${total} rows, more than ${MAX_LIMIT}: narrow the window or pick a team`, [{ path: "query", message: "Too many rows" }]);
  return rows;
}
const isMarked = (drill, row) => drill.marked.length > 0 && drill.marked.every((f) => row[f.member] === f.value);
function meta(r, page, total, marked) {
  const spec = KINDS[r.drill.kind];
  const markedColumn = r.drill.marked.length > 0 ? spec.markedColumn?.[r.drill.marked[0].member] ?? null : null;
  return { page, perPage: FACTS_PER_PAGE, total, marked, markedColumn, measure: r.drill.measure, kind: r.drill.kind, from: r.from, to: r.to, team: r.team, columns: spec.columns };
}
async function listFacts(pool, tenantId, query) {
  const r = resolve(query);
  const cube = await loadCube();
  const kind = cubeOf(r.drill);
  const keys = await run(pool, cube, tenantId, listQuery(r, r.drill.marked.map((f) => f.member)));
  const marked = keys.filter((row) => isMarked(r.drill, row)).length;
  const ids = keys.slice((query.page - 1) * FACTS_PER_PAGE, query.page * FACTS_PER_PAGE).map((row) => String(row[`${kind}.id`]));
  const rows = ids.length === 0 ? [] : await run(pool, cube, tenantId, listQuery(r, KINDS[kind].dimensions.map((d) => `${kind}.${d}`), [{ member: `${kind}.id`, operator: "equals", values: ids }]));
  return { data: rows.map((row) => presentFact(kind, row)), meta: meta(r, query.page, keys.length, marked) };
}
async function allFacts(pool, tenantId, scope) {
  const r = resolve(scope);
  const cube = await loadCube();
  const kind = cubeOf(r.drill);
  const rows = await run(pool, cube, tenantId, listQuery(r, KINDS[kind].dimensions.map((d) => `${kind}.${d}`)));
  const facts = rows.map((row) => presentFact(kind, row));
  return { rows: facts, meta: meta(r, 1, facts.length, rows.filter((row) => isMarked(r.drill, row)).length) };
}
async function factsCsv(pool, tenantId, scope) {
  const { rows, meta: m } = await allFacts(pool, tenantId, scope);
  const header = ["id", ...KINDS[m.kind].columns.map((c) => c.key)];
  const body = Readable.from(rows.map((row) => csvCells(m.kind, row))).pipe(stringify({ header: true, columns: header }));
  const filename = `facts-${m.measure.replace(".", "-")}-${m.team ? `${m.team}-` : ""}${m.from}-${m.to}.csv`;
  return { filename, body };
}
export {
  FACTS_PER_PAGE,
  FactsQuery,
  allFacts,
  factsCsv,
  listFacts,
  requireDrill
};
