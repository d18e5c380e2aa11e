import { readdirSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { SCHEMA_DIR } from "../cube/compiler.js";
import { isPublicCube } from "../cube/publicCubes.js";
const BI_TENANT = '(SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))';
const CUBE_REF = /\{CUBE\}\.([a-z_][a-z0-9_]*)/g;
const OTHER_REF = /\{(?!CUBE\})[^}]*\}/;
const SOURCE = /^SELECT \* FROM ([a-z_][a-z0-9_]*) WHERE \{SECURITY_CONTEXT\.tenant_id\.requiredFilter\('tenant_id'\)\}$/;
const AGGREGATE = /\b(sum|avg|count|min|max|percentile_cont|percentile_disc)\s*\(/i;
const VALUE_TYPES = /* @__PURE__ */ new Set(["sum", "avg", "min", "max", "count_distinct", "count_distinct_approx"]);
function columnExpression(sql) {
  return /^[a-z_][a-z0-9_]*$/.test(sql) ? `s.${sql}` : `(${sql.replaceAll("{CUBE}", "s")})`;
}
function measureComment(measure) {
  return `${measure.name}: ${measure.description ?? ""}`.trim();
}
function biViews(dir = SCHEMA_DIR) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".yml")).sort();
  const views = [];
  for (const file of files) {
    const doc = parse(readFileSync(`${dir}/${file}`, "utf8"));
    for (const cube of doc.cubes ?? []) if (!isPublicCube(cube.name, cube.sql)) views.push(viewOf(cube));
  }
  return views.sort((a, b) => a.cube.localeCompare(b.cube));
}
function viewOf(cube) {
  const source = SOURCE.exec(cube.sql.trim())?.[1];
  if (!source) throw new Error(`cube ${cube.name}: sql is not "SELECT * FROM <relation> WHERE <tenant filter>"`);
  const columns = [];
  const byName = /* @__PURE__ */ new Map();
  const add = (column) => {
    const existing = byName.get(column.name);
    if (existing) {
      if (!existing.comment.includes(column.comment)) existing.comment = `${existing.comment}
${column.comment}`;
      return;
    }
    byName.set(column.name, column);
    columns.push(column);
  };
  for (const d of cube.dimensions ?? []) {
    if (d.public === false && !d.primary_key || !d.sql || OTHER_REF.test(d.sql)) continue;
    add({ name: d.name, expression: columnExpression(d.sql), comment: d.description ?? d.title ?? "" });
  }
  const rawColumns = [];
  for (const m of cube.measures ?? []) {
    const filters = (m.filters ?? []).map((f) => f.sql);
    if (filters.some((f) => OTHER_REF.test(f))) continue;
    if (filters.length > 0) {
      const expression = filters.map((f) => `(${f.replaceAll("{CUBE}", "s")})`).join(" AND ");
      add({ name: `in_${m.name}`, expression: `COALESCE(${expression}, false)`, comment: measureComment(m) });
    }
    const sql = m.sql ?? "";
    if (!sql || OTHER_REF.test(sql)) continue;
    if (VALUE_TYPES.has(m.type) && !AGGREGATE.test(sql)) {
      add({ name: `${m.name}_value`, expression: columnExpression(sql), comment: measureComment(m) });
    } else {
      for (const match of sql.matchAll(CUBE_REF)) rawColumns.push({ name: match[1], measure: m });
    }
  }
  for (const { name, measure } of rawColumns) {
    add({ name, expression: `s.${name}`, comment: measureComment(measure) });
  }
  const primaryKey = cube.dimensions?.find((d) => d.primary_key)?.name;
  if (!primaryKey || !byName.has(primaryKey)) throw new Error(`cube ${cube.name}: no primary key dimension`);
  return { cube: cube.name, source, primaryKey, comment: cube.description ?? "", columns };
}
function literal(text) {
  return `'${text.replaceAll("'", "''")}'`;
}
function renderBiViews(views) {
  const statements = [];
  for (const view of views) {
    const select = view.columns.map((c) => `  ${c.expression} AS "${c.name}"`).join(",\n");
    statements.push(
      `CREATE VIEW "bi"."${view.cube}" WITH (security_barrier = true) AS
SELECT
${select}
FROM "public"."${view.source}" s
WHERE s.tenant_id = ${BI_TENANT};`
    );
    statements.push(`COMMENT ON VIEW "bi"."${view.cube}" IS ${literal(view.comment)};`);
    for (const c of view.columns) {
      statements.push(`COMMENT ON COLUMN "bi"."${view.cube}"."${c.name}" IS ${literal(c.comment)};`);
    }
  }
  return statements.join("\n--> statement-breakpoint\n") + "\n";
}
export {
  BI_TENANT,
  biViews,
  renderBiViews
};
