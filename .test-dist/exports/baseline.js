import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { z } from "zod";
import { loadCube } from "../cube/compiler.js";
import { lastDay, monthIndex, monthOf, monthRange } from "../cube/months.js";
import { validateQuery } from "../cube/query.js";
import { runQuery } from "../cube/run.js";
import { Month } from "../shared/schemas.js";
const BASELINE_COLUMNS = [
  "team_id",
  "month",
  "team_slug",
  "team_name",
  "team_external_ref",
  "cost_centre_code",
  "org_unit_id",
  "org_unit_slug",
  "supplier_name",
  "delivery_model",
  "location_country",
  "headcount",
  "internal_headcount",
  "external_headcount",
  "headcount_by_supplier",
  "active_authors",
  "issues_closed",
  "prs_merged",
  "pr_cycle_time_p50_seconds",
  "issue_lead_time_p50_seconds",
  "production_deploys",
  "change_failure_rate",
  "mttr_p50_seconds",
  "ceu_total",
  "ccv_total",
  "ai_assisted_pr_share",
  "ai_seat_holders",
  "ai_active_users",
  "ai_sessions",
  "ai_commits",
  "survey_response_rate",
  "team_experience_score",
  "aiva_light_overall",
  "aiva_scope"
];
const MAX_WINDOW_MONTHS = 36;
const currentMonth = (now = /* @__PURE__ */ new Date()) => now.toISOString().slice(0, 7);
const BaselineWindow = z.object({
  from: Month.optional(),
  to: Month.optional()
});
function checkWindow(q, ctx) {
  const { from, to } = resolveWindow(q);
  const length = monthIndex(to) - monthIndex(from) + 1;
  if (length < 1) ctx.addIssue({ code: "custom", path: ["from"], message: `Must not be after to (${to})` });
  else if (length > MAX_WINDOW_MONTHS) ctx.addIssue({ code: "custom", path: ["to"], message: `The window is at most ${MAX_WINDOW_MONTHS} months (${from} to ${to} is ${length})` });
}
const BaselineQuery = BaselineWindow.extend({
  format: z.enum(["csv", "json"], { message: "Must be csv or json" }).default("csv"),
  /** One team's rows only (its slug), exactly as they are in the whole export: the web app's team download. */
  team: z.string().min(1).max(100).optional()
}).superRefine(checkWindow);
function resolveWindow(q, now = /* @__PURE__ */ new Date()) {
  const to = q.to ?? currentMonth(now);
  const from = q.from ?? monthOf(monthIndex(to) - 12);
  return { from, to };
}
const BASELINE_FACTS = [
  { team: "author_activity.team_id", time: "author_activity.happened_at", measures: [["author_activity.active_authors", "active_authors", "count"]] },
  {
    team: "projects.owning_team_id",
    time: "issues.closed_at",
    measures: [["issues.issues_closed", "issues_closed", "count"], ["issues.issue_lead_time_p50_seconds", "issue_lead_time_p50_seconds", "seconds"]]
  },
  {
    team: "pull_requests.team_id",
    time: "pull_requests.merged_at",
    measures: [
      ["pull_requests.prs_merged", "prs_merged", "count"],
      ["pull_requests.pr_cycle_time_p50_seconds", "pr_cycle_time_p50_seconds", "seconds"],
      ["pull_requests.ceu_total", "ceu_total", "count"],
      ["pull_requests.ccv_total", "ccv_total", "count"],
      ["pull_requests.ai_assisted_pr_share", "ai_assisted_pr_share", "ratio"]
    ]
  },
  {
    team: "deployments.team_id",
    time: "deployments.created_at",
    measures: [["deployments.production_deploys", "production_deploys", "count"], ["deployments.change_failure_rate", "change_failure_rate", "ratio"]]
  },
  { team: "incidents.team_id", time: "incidents.closed_at", measures: [["incidents.mttr_p50_seconds", "mttr_p50_seconds", "seconds"]] },
  { team: "seats.team_id", time: "seats.month", measures: [["seats.ai_seat_holders", "ai_seat_holders", "count"]] },
  {
    team: "ai_sessions.team_id",
    time: "ai_sessions.started_at",
    measures: [["ai_sessions.ai_active_users", "ai_active_users", "count"], ["ai_sessions.ai_sessions", "ai_sessions", "count"]]
  },
  { team: "ai_commits.team_id", time: "ai_commits.committed_at", measures: [["ai_commits.ai_commits", "ai_commits", "count"]] },
  {
    team: "survey_responses.team_id",
    time: "survey_responses.month",
    measures: [["survey_responses.survey_response_rate", "survey_response_rate", "ratio"], ["survey_responses.team_experience_score", "team_experience_score", "score"]]
  }
];
const round = (value, decimals) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
function format(value, kind) {
  if (value === null || value === void 0) return kind === "count" ? 0 : null;
  if (kind === "count" || kind === "seconds") return Math.round(value);
  return round(value, kind === "ratio" ? 4 : 2);
}
const GRID_LIMIT = 1e7;
async function teamsOf(pool, tenantId) {
  const result = await pool.query(
    `select t.id, t.slug, t.name, t.external_ref, t.cost_centre_code, t.org_unit_id, o.slug as org_unit_slug, t.supplier_name,
            t.delivery_model, t.location_country
     from teams t
     left join org_units o on o.id = t.org_unit_id and o.tenant_id = $1
     where t.tenant_id = $1 and t.enabled
     order by t.slug collate "C"`,
    [tenantId]
  );
  return result.rows;
}
const HEADCOUNT_QUERIES = {
  totals: { measures: ["memberships.register_headcount", "memberships.internal_headcount", "memberships.external_headcount"], dimensions: ["memberships.team_id"] },
  bySupplier: {
    measures: ["memberships.external_headcount"],
    dimensions: ["memberships.team_id", "people.supplier_name"],
    filters: [{ member: "memberships.membership_source", operator: "equals", values: ["register"] }, { member: "people.employment_type", operator: "equals", values: ["supplier"] }]
  }
};
async function headcounts(pool, cube, tenantId) {
  const grid = (query) => {
    const q = validateQuery(cube, query);
    q.limit = GRID_LIMIT;
    return runQuery(pool, cube, tenantId, q);
  };
  const [totals, suppliers] = await Promise.all([grid(HEADCOUNT_QUERIES.totals), grid(HEADCOUNT_QUERIES.bySupplier)]);
  const byTeam = /* @__PURE__ */ new Map();
  for (const row of totals) {
    byTeam.set(String(row["memberships.team_id"]), {
      headcount: Number(row["memberships.register_headcount"]),
      internal_headcount: Number(row["memberships.internal_headcount"]),
      external_headcount: Number(row["memberships.external_headcount"]),
      by_supplier: {}
    });
  }
  for (const row of suppliers) {
    const team = byTeam.get(String(row["memberships.team_id"]));
    const count = Number(row["memberships.external_headcount"]);
    if (!team || count === 0) continue;
    const name = row["people.supplier_name"] ?? "unknown";
    team.by_supplier[name] = (team.by_supplier[name] ?? 0) + count;
  }
  return byTeam;
}
const NO_MEMBERS = { headcount: 0, internal_headcount: 0, external_headcount: 0, by_supplier: {} };
const sortedObject = (value) => Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
function aiva(headcount, activeUsers, share, score) {
  const parts = [];
  if (headcount > 0) parts.push(["adoption", Math.min(activeUsers / headcount * 100, 100)]);
  if (share !== null) parts.push(["delivery", share * 100]);
  if (score !== null) parts.push(["perception", score]);
  if (parts.length === 0) return { overall: null, scope: null };
  return { overall: round(parts.reduce((sum, [, v]) => sum + v, 0) / parts.length, 2), scope: parts.map(([name]) => name).join("+") };
}
async function baselineRows(pool, tenantId, window, teamSlug, options = {}) {
  const cube = await loadCube();
  const months = monthRange(window.from, window.to);
  const dateRange = [`${window.from}-01`, lastDay(window.to)];
  const values = /* @__PURE__ */ new Map();
  const [allTeams, register] = await Promise.all([
    teamsOf(pool, tenantId),
    headcounts(pool, cube, tenantId),
    ...BASELINE_FACTS.map(async (fact) => {
      const query = validateQuery(cube, {
        measures: fact.measures.map(([m]) => m),
        dimensions: [fact.team],
        timeDimensions: [{ dimension: fact.time, granularity: "month", dateRange }],
        order: [[fact.team, "asc"]]
      });
      query.limit = GRID_LIMIT;
      for (const row of await runQuery(pool, cube, tenantId, query, options)) {
        const team = row[fact.team];
        if (typeof team !== "string") continue;
        const key = `${team}|${String(row[`${fact.time}.month`]).slice(0, 7)}`;
        let cells = values.get(key);
        if (!cells) values.set(key, cells = /* @__PURE__ */ new Map());
        cells.set(fact.time, row);
      }
    })
  ]);
  const teams = allTeams.filter((t) => teamSlug === void 0 || t.slug === teamSlug);
  const rows = [];
  for (const team of teams) {
    const members = register.get(team.id) ?? NO_MEMBERS;
    for (const month of months) {
      const cells = values.get(`${team.id}|${month}`);
      const row = {
        team_id: team.id,
        month,
        team_slug: team.slug,
        team_name: team.name,
        team_external_ref: team.external_ref,
        cost_centre_code: team.cost_centre_code,
        org_unit_id: team.org_unit_id,
        org_unit_slug: team.org_unit_slug,
        supplier_name: team.supplier_name,
        delivery_model: team.delivery_model,
        location_country: team.location_country,
        headcount: members.headcount,
        internal_headcount: members.internal_headcount,
        external_headcount: members.external_headcount,
        headcount_by_supplier: sortedObject(members.by_supplier)
      };
      for (const fact of BASELINE_FACTS) {
        const source = cells?.get(fact.time);
        for (const [measure, column, kind] of fact.measures) row[column] = format(source?.[measure] ?? null, kind);
      }
      const score = aiva(members.headcount, row.ai_active_users, row.ai_assisted_pr_share, row.team_experience_score);
      row.aiva_light_overall = score.overall;
      row.aiva_scope = score.scope;
      rows.push(Object.fromEntries(BASELINE_COLUMNS.map((c) => [c, row[c] ?? null])));
    }
  }
  return rows;
}
const csvCell = (value) => value === null ? "" : typeof value === "object" ? JSON.stringify(value) : value;
async function exportTeamBaseline(pool, tenantId, query, options = {}) {
  const window = resolveWindow(query, options.now);
  const rows = await baselineRows(pool, tenantId, window, query.team, { rollups: options.rollups });
  const name = `team-baseline-${query.team ? `${query.team}-` : ""}${window.from}-${window.to}`;
  if (query.format === "json") {
    const generatedAt = options.generatedAt ?? (options.now ?? /* @__PURE__ */ new Date()).toISOString();
    return { contentType: "application/json; charset=utf-8", filename: `${name}.json`, body: JSON.stringify({ from: window.from, to: window.to, generatedAt, rows }) };
  }
  const body = Readable.from(rows.map((row) => BASELINE_COLUMNS.map((c) => csvCell(row[c])))).pipe(stringify({ header: true, columns: [...BASELINE_COLUMNS] }));
  return { contentType: "text/csv; charset=utf-8", filename: `${name}.csv`, body };
}
export {
  BASELINE_COLUMNS,
  BASELINE_FACTS,
  BaselineQuery,
  BaselineWindow,
  HEADCOUNT_QUERIES,
  MAX_WINDOW_MONTHS,
  baselineRows,
  checkWindow,
  currentMonth,
  exportTeamBaseline,
  resolveWindow
};
