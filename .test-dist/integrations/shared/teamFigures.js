import { cubeLoad } from "../../cube/service.js";
const FIGURES = [
  { key: "deploys", title: "Production deployments", measure: "deployments.production_deploys", kind: "count", lowerIsBetter: false, group: "DORA" },
  { key: "lead_time", title: "Lead time for changes p50", measure: "change_lead_times.lead_time_for_changes_p50_seconds", n: "change_lead_times.deployed_changes", kind: "seconds", lowerIsBetter: true, group: "DORA" },
  { key: "cfr", title: "Change failure rate", measure: "deployments.change_failure_rate", n: "deployments.finished_production_deploys", kind: "ratio", lowerIsBetter: true, group: "DORA" },
  { key: "mttr", title: "Time to restore p50", measure: "incidents.mttr_p50_seconds", n: "incidents.incidents_restored", kind: "seconds", lowerIsBetter: true, group: "DORA" },
  { key: "prs_merged", title: "PRs merged", measure: "pull_requests.prs_merged", kind: "count", lowerIsBetter: false, group: "Flow" },
  { key: "pr_cycle", title: "PR cycle time p50", measure: "pull_requests.pr_cycle_time_p50_seconds", n: "pull_requests.prs_merged", kind: "seconds", lowerIsBetter: true, group: "Flow" },
  { key: "issues_closed", title: "Issues closed", measure: "issues.issues_closed", kind: "count", lowerIsBetter: false, group: "Flow" },
  { key: "issue_lead", title: "Issue lead time p50", measure: "issues.issue_lead_time_p50_seconds", n: "issues.issues_closed", kind: "seconds", lowerIsBetter: true, group: "Flow" }
];
const TIMES = ["deployments.created_at", "change_lead_times.deployed_at", "incidents.closed_at", "pull_requests.merged_at", "issues.closed_at"];
const numberOf = (v) => v === null || v === void 0 || v === "" ? null : Number(v);
async function teamFigures(pool, tenantId, teamId, span) {
  const measures = [...new Set(FIGURES.flatMap((f) => f.n ? [f.measure, f.n] : [f.measure]))];
  const { data } = await cubeLoad(pool, { tenantId }, {
    measures,
    timeDimensions: TIMES.map((dimension) => ({ dimension, dateRange: [span.from, span.to] })),
    filters: [{ member: "teams.id", operator: "equals", values: [teamId] }]
  });
  const row = data[0] ?? {};
  return FIGURES.map((def) => ({
    def,
    value: numberOf(row[def.measure]) ?? (def.kind === "count" ? 0 : null),
    n: def.n ? numberOf(row[def.n]) ?? 0 : null
  }));
}
function formatSeconds(seconds) {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}
function formatFigure(f) {
  const n = f.n === null ? "" : ` (n = ${f.n})`;
  if (f.value === null) return `no value${n}`;
  const text = f.def.kind === "seconds" ? formatSeconds(f.value) : f.def.kind === "ratio" ? `${Math.round(f.value * 100)}%` : String(f.value);
  return `${text}${n}`;
}
function formatChange(current, previous) {
  if (current.value === null || previous.value === null) return null;
  if (current.def.kind === "count") {
    const d = current.value - previous.value;
    return d === 0 ? "\xB10" : d > 0 ? `+${d}` : `\u2212${-d}`;
  }
  if (current.def.kind === "ratio") {
    const d = Math.round((current.value - previous.value) * 100);
    return d === 0 ? "\xB10 pts" : d > 0 ? `+${d} pts` : `\u2212${-d} pts`;
  }
  if (previous.value === 0) return null;
  const pct = Math.round((current.value - previous.value) / previous.value * 100);
  return pct === 0 ? "\xB10%" : pct > 0 ? `+${pct}%` : `\u2212${-pct}%`;
}
const teamPageUrl = (appUrl, teamId) => `${appUrl}/app/teams/${teamId}`;
function monthSpan(month) {
  const [y, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, "0")}` };
}
const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 864e5;
export {
  DAY_MS,
  FIGURES,
  dayOf,
  formatChange,
  formatFigure,
  formatSeconds,
  monthSpan,
  teamFigures,
  teamPageUrl
};
