import { escapeLiteral } from "pg";
import { plan } from "../cube/plan.js";
import { validateQuery } from "../cube/query.js";
import { BASELINE_COLUMNS, BASELINE_FACTS, HEADCOUNT_QUERIES } from "../exports/baseline.js";
import { BI_TENANT } from "./views.js";
const PLACEHOLDER_TENANT = "00000000-0000-4000-8000-00000000b1b1";
const quote = (name) => `"${name.replaceAll('"', '""')}"`;
function inline(p) {
  return p.sql.replace(/\$(\d+)\b/g, (_, n) => {
    const value = p.params[Number(n) - 1];
    if (value === PLACEHOLDER_TENANT) return BI_TENANT;
    if (typeof value !== "string") throw new Error(`bi.team_month: unexpected parameter ${String(value)}`);
    return escapeLiteral(value);
  });
}
const aliasOf = (p, member) => {
  const column = p.columns.find((c) => c.keys[0] === member);
  if (!column) throw new Error(`bi.team_month: ${member} is not a column of the planned query`);
  return quote(column.alias);
};
const jsRound = (x) => `(floor(${x}) + CASE WHEN (${x}) - floor(${x}) >= 0.5 THEN 1 ELSE 0 END)`;
function formatted(column, kind) {
  const value = `(${column})::float8`;
  switch (kind) {
    case "count":
      return `COALESCE(${jsRound(value)}, 0)::bigint`;
    case "seconds":
      return `${jsRound(value)}::bigint`;
    case "ratio":
      return `(${jsRound(`${value} * 10000`)} / 10000)`;
    case "score":
      return `(${jsRound(`${value} * 100`)} / 100)`;
  }
}
const VIEW_COMMENT = "One row per enabled team and month with the 34 team-baseline columns, equal to the team-baseline export (METRICS.md). Months run from the first month with any fact of the tenant to the current month (UTC); filter on month (YYYY-MM) or month_start.";
const COLUMN_COMMENTS = {
  team_id: "Team (UUID).",
  month: "Calendar month, YYYY-MM (UTC).",
  team_slug: "Team slug (the rows are ordered by it, then by month).",
  team_name: "Team name.",
  team_external_ref: "Team reference in the register.",
  cost_centre_code: "Cost centre code from the register.",
  org_unit_id: "Organisation unit (UUID).",
  org_unit_slug: "Organisation unit slug.",
  supplier_name: "Supplier delivering the team, from the register.",
  delivery_model: "Delivery model from the register.",
  location_country: "Country from the register.",
  headcount_by_supplier: "Supplier members by supplier name (unknown when the register names none), a JSON object; no history is kept.",
  aiva_light_overall: "AI value assessment (light), 0-100: the mean of the components with data in the month (adoption, delivery, perception).",
  aiva_scope: "The components of aiva_light_overall, joined by + in that order (adoption+delivery+perception, adoption+delivery, ...).",
  month_start: "The month as a date (its first day), for BI tools that group by time. Not an export column."
};
function measureComments(cube) {
  const out = /* @__PURE__ */ new Map();
  for (const c of cube.meta) for (const m of c.measures) out.set(m.name, `${m.name.slice(m.name.indexOf(".") + 1)}: ${m.description ?? m.title ?? ""}`.trim());
  return out;
}
function renderTeamMonth(cube) {
  const planned = (query) => plan(cube, PLACEHOLDER_TENANT, validateQuery(cube, query), null, []);
  const ctes = [];
  const joins = [];
  const months = [];
  const cells = /* @__PURE__ */ new Map();
  BASELINE_FACTS.forEach((fact, i) => {
    const p = planned({ measures: fact.measures.map(([m]) => m), dimensions: [fact.team], timeDimensions: [{ dimension: fact.time, granularity: "month" }] });
    const name = `f${i}`;
    const month = aliasOf(p, `${fact.time}.month`);
    ctes.push(`${name} AS (
${inline(p)}
)`);
    joins.push(`LEFT JOIN ${name} ON ${name}.${aliasOf(p, fact.team)} = t.id AND ${name}.${month} = mo.m`);
    months.push(`SELECT ${month} AS m FROM ${name}`);
    for (const [measure, column, kind] of fact.measures) cells.set(column, formatted(`${name}.${aliasOf(p, measure)}`, kind));
  });
  const totals = planned(HEADCOUNT_QUERIES.totals);
  const bySupplier = planned(HEADCOUNT_QUERIES.bySupplier);
  ctes.push(`hc AS (
${inline(totals)}
)`);
  ctes.push(`sup_rows AS (
${inline(bySupplier)}
)`);
  ctes.push(
    `sup AS (SELECT team, jsonb_object_agg(name, n) AS by_supplier FROM (SELECT ${aliasOf(bySupplier, "memberships.team_id")} AS team, COALESCE(${aliasOf(bySupplier, "people.supplier_name")}, 'unknown') AS name, sum(${aliasOf(bySupplier, "memberships.external_headcount")})::bigint AS n FROM sup_rows WHERE ${aliasOf(bySupplier, "memberships.external_headcount")} <> 0 GROUP BY 1, 2) s GROUP BY team)`
  );
  ctes.push(
    `teams AS (SELECT t.id, t.slug, t.name, t.external_ref, t.cost_centre_code, t.org_unit_id, o.slug AS org_unit_slug, t.supplier_name, t.delivery_model, t.location_country FROM "public"."teams" t LEFT JOIN "public"."org_units" o ON o.id = t.org_unit_id AND o.tenant_id = t.tenant_id WHERE t.tenant_id = ${BI_TENANT} AND t.enabled)`
  );
  ctes.push(
    `months AS (SELECT generate_series(min(m), max(m), interval '1 month') AS m FROM (
` + [...months, `SELECT date_trunc('month', now() AT TIME ZONE 'UTC')`].join("\nUNION ALL\n") + `
) b WHERE m IS NOT NULL)`
  );
  const hc = (member) => `COALESCE(hc.${aliasOf(totals, member)}, 0)::bigint`;
  cells.set("headcount", hc("memberships.register_headcount"));
  cells.set("internal_headcount", hc("memberships.internal_headcount"));
  cells.set("external_headcount", hc("memberships.external_headcount"));
  cells.set("headcount_by_supplier", `COALESCE(sup.by_supplier, '{}'::jsonb)`);
  const team = {
    team_id: "t.id",
    month: `to_char(mo.m, 'YYYY-MM')`,
    team_slug: "t.slug",
    team_name: "t.name",
    team_external_ref: "t.external_ref",
    cost_centre_code: "t.cost_centre_code",
    org_unit_id: "t.org_unit_id",
    org_unit_slug: "t.org_unit_slug",
    supplier_name: "t.supplier_name",
    delivery_model: "t.delivery_model",
    location_country: "t.location_country"
  };
  for (const [column, sql] of Object.entries(team)) cells.set(column, sql);
  const inner = BASELINE_COLUMNS.filter((c) => c !== "aiva_light_overall" && c !== "aiva_scope");
  const missing = inner.filter((c) => !cells.has(c));
  if (missing.length > 0) throw new Error(`bi.team_month: no SQL for ${missing.join(", ")}`);
  const innerSelect = [...inner.map((c) => `${cells.get(c)} AS ${quote(c)}`), `mo.m::date AS "month_start"`].join(",\n  ");
  const adoption = `CASE WHEN r.headcount > 0 THEN LEAST((r.ai_active_users::float8 / r.headcount::float8) * 100, 100) END`;
  const delivery = `r.ai_assisted_pr_share * 100`;
  const perception = `r.team_experience_score`;
  const outer = [
    ...inner.map((c) => `r.${quote(c)}`),
    `(SELECT CASE WHEN c.n > 0 THEN ${jsRound("(c.s / c.n) * 100")} / 100 END FROM (SELECT (COALESCE(a.adoption, 0) + COALESCE(a.delivery, 0)) + COALESCE(a.perception, 0) AS s, ((a.adoption IS NOT NULL)::int + (a.delivery IS NOT NULL)::int + (a.perception IS NOT NULL)::int)::float8 AS n) c) AS "aiva_light_overall"`,
    `NULLIF(concat_ws('+', CASE WHEN a.adoption IS NOT NULL THEN 'adoption' END, CASE WHEN a.delivery IS NOT NULL THEN 'delivery' END, CASE WHEN a.perception IS NOT NULL THEN 'perception' END), '') AS "aiva_scope"`,
    `r."month_start"`
  ];
  const view = `CREATE VIEW "bi"."team_month" WITH (security_barrier = true) AS
WITH
${ctes.join(",\n")},
rows AS (SELECT
  ${innerSelect}
FROM teams t CROSS JOIN months mo
LEFT JOIN hc ON hc.${aliasOf(totals, "memberships.team_id")} = t.id
LEFT JOIN sup ON sup.team = t.id
${joins.join("\n")})
SELECT
  ${outer.join(",\n  ")}
FROM rows r
CROSS JOIN LATERAL (SELECT ${adoption} AS adoption, ${delivery} AS delivery, ${perception} AS perception) a
ORDER BY r.team_slug COLLATE "C", r.month;`;
  const described = measureComments(cube);
  const measureOf = new Map([
    ...BASELINE_FACTS.flatMap((f) => f.measures.map(([measure, column]) => [column, measure])),
    ["headcount", "memberships.register_headcount"],
    ["internal_headcount", "memberships.internal_headcount"],
    ["external_headcount", "memberships.external_headcount"]
  ]);
  const comments = [...BASELINE_COLUMNS, "month_start"].map((column) => {
    const measure = measureOf.get(column);
    const text = COLUMN_COMMENTS[column] ?? (measure ? described.get(measure) : void 0);
    if (!text) throw new Error(`bi.team_month: no comment for ${column}`);
    return `COMMENT ON COLUMN "bi"."team_month".${quote(column)} IS ${escapeLiteral(text)};`;
  });
  return [view, `COMMENT ON VIEW "bi"."team_month" IS ${escapeLiteral(VIEW_COMMENT)};`, ...comments];
}
export {
  renderTeamMonth
};
