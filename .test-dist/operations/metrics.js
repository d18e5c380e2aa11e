import { z } from "zod";
import { Paging } from "../http/route.js";
import { BaselineWindow, baselineRows, checkWindow, resolveWindow } from "../exports/baseline.js";
const METRIC_COLUMNS = [
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
const MetricsQuery = BaselineWindow.extend({
  ...Paging.shape,
  team: z.string().min(1).max(200).optional()
}).superRefine(checkWindow);
async function listMetrics(pool, tenantId, query) {
  const window = resolveWindow(query);
  const all = await baselineRows(pool, tenantId, window, query.team);
  const page = all.slice((query.page - 1) * query.perPage, query.page * query.perPage);
  const rows = page.map((r) => ({
    team_id: r.team_id,
    team_slug: r.team_slug,
    month: r.month,
    measures: Object.fromEntries(METRIC_COLUMNS.map((c) => [c, r[c]]))
  }));
  return { rows, total: all.length, ...window };
}
export {
  METRIC_COLUMNS,
  MetricsQuery,
  listMetrics
};
