import { median } from "./measures.js";
import { daysIn } from "../cube/months.js";
import { cubeLoad } from "../cube/service.js";
import { AppError } from "../errors.js";
import { DORA_SOURCE, doraTier, isDoraMeasure } from "../shared/doraBands.js";
import { baselineRows, resolveWindow } from "../exports/baseline.js";
const MEASURES = [
  ["deployments.production_deploys", "production_deploys", false],
  ["change_lead_times.lead_time_for_changes_p50_seconds", null, true],
  ["deployments.change_failure_rate", "change_failure_rate", true],
  ["deployments.failed_deployment_recovery_time_p50_seconds", null, true],
  ["incidents.mttr_p50_seconds", "mttr_p50_seconds", true],
  ["pull_requests.prs_merged", "prs_merged", null],
  ["pull_requests.pr_cycle_time_p50_seconds", "pr_cycle_time_p50_seconds", true],
  ["issues.issues_closed", "issues_closed", null],
  ["issues.issue_lead_time_p50_seconds", "issue_lead_time_p50_seconds", true],
  ["author_activity.active_authors", "active_authors", null],
  ["pull_requests.ai_assisted_pr_share", "ai_assisted_pr_share", null],
  ["survey_responses.team_experience_score", "team_experience_score", false]
];
const BENCHMARK_MEASURES = MEASURES.map(([m]) => m);
const FROM_CUBE = {
  "change_lead_times.lead_time_for_changes_p50_seconds": ["change_lead_times.team_id", "change_lead_times.deployed_at"],
  "deployments.failed_deployment_recovery_time_p50_seconds": ["deployments.team_id", "deployments.created_at"]
};
async function cubeGrid(pool, tenantId, measure, window) {
  const [team, time] = FROM_CUBE[measure];
  const end = new Date(Date.UTC(Number(window.to.slice(0, 4)), Number(window.to.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const { data } = await cubeLoad(pool, { tenantId }, {
    measures: [measure],
    dimensions: [team],
    timeDimensions: [{ dimension: time, granularity: "month", dateRange: [`${window.from}-01`, end] }],
    limit: 5e4
  });
  const grid = /* @__PURE__ */ new Map();
  for (const row of data) {
    const value = row[measure];
    if (typeof row[team] === "string" && typeof value === "number") grid.set(`${row[team]}|${String(row[`${time}.month`]).slice(0, 7)}`, value);
  }
  return grid;
}
async function teamBenchmark(pool, tenantId, teamSlug, window) {
  const resolved = resolveWindow(window);
  const rows = await baselineRows(pool, tenantId, resolved);
  const own = rows.find((r) => r.team_slug === teamSlug);
  if (!own) throw new AppError("not_found", `No enabled team with slug ${teamSlug} (list_dimension_values on teams.slug lists them)`);
  const grids = new Map(await Promise.all(Object.keys(FROM_CUBE).map(async (m) => [m, await cubeGrid(pool, tenantId, m, resolved)])));
  const months = [...new Set(rows.map((r) => r.month))];
  const teamIds = [...new Set(rows.map((r) => r.team_id))];
  const byCell = new Map(rows.map((r) => [`${r.team_id}|${r.month}`, r]));
  const valueOf = (teamId, month, measure, column) => {
    if (column === null) return grids.get(measure)?.get(`${teamId}|${month}`) ?? null;
    const value = byCell.get(`${teamId}|${month}`)?.[column];
    return typeof value === "number" ? value : null;
  };
  const out = [];
  for (const month of months) {
    for (const [measure, column, lowerIsBetter] of MEASURES) {
      const teamValue = valueOf(own.team_id, month, measure, column);
      const values = teamIds.map((id) => valueOf(id, month, measure, column)).filter((v) => v !== null);
      const orgMedian = median(values);
      const band = (v) => isDoraMeasure(measure) ? doraTier(measure, v, daysIn(month)) : null;
      out.push({
        month,
        measure,
        team_value: teamValue,
        org_median: orgMedian,
        teams_with_value: values.length,
        vs_org_median: teamValue === null || orgMedian === null ? null : teamValue > orgMedian ? "above" : teamValue < orgMedian ? "below" : "equal",
        lower_is_better: lowerIsBetter,
        team_dora_band: band(teamValue),
        org_median_dora_band: band(orgMedian)
      });
    }
  }
  return { team: { slug: teamSlug, name: own.team_name }, window: resolved, teams_compared: teamIds.length, dora_source: DORA_SOURCE, rows: out };
}
export {
  BENCHMARK_MEASURES,
  teamBenchmark
};
