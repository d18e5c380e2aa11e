import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { SCHEMA_DIR } from "../cube/compiler.js";
const FINISHED = { rows: "deployments.finished_production_deploys", marked: "deployments.failed_production_deploys" };
const MERGED = { rows: "pull_requests.prs_merged" };
const DRILLS = Object.freeze({
  "deployments.production_deploys": { rows: "deployments.production_deploys" },
  "deployments.production_deploys_per_day": { rows: "deployments.production_deploys" },
  "deployments.production_deploys_per_week": { rows: "deployments.production_deploys" },
  "deployments.finished_production_deploys": FINISHED,
  "deployments.change_failure_rate": FINISHED,
  "deployments.failed_production_deploys": { rows: "deployments.failed_production_deploys" },
  "deployments.recovered_deploys": { rows: "deployments.recovered_deploys" },
  "deployments.failed_deployment_recovery_time_p50_seconds": { rows: "deployments.recovered_deploys" },
  "pull_requests.prs_merged": MERGED,
  "pull_requests.pr_cycle_time_p50_seconds": MERGED,
  "pull_requests.ccv_total": MERGED,
  "pull_requests.ceu_total": MERGED,
  "pull_requests.ai_assisted_prs_merged": { rows: "pull_requests.ai_assisted_prs_merged" },
  "pull_requests.ai_assisted_pr_share": { rows: "pull_requests.prs_merged", marked: "pull_requests.ai_assisted_prs_merged" },
  "change_lead_times.deployed_changes": { rows: "change_lead_times.deployed_changes" },
  "change_lead_times.lead_time_for_changes_p50_seconds": { rows: "change_lead_times.deployed_changes" },
  "change_lead_times.undeployed_changes": { rows: "change_lead_times.undeployed_changes" },
  "issues.issues_closed": { rows: "issues.issues_closed" },
  "issues.issue_lead_time_p50_seconds": { rows: "issues.issues_closed" },
  "incidents.incidents_opened": { rows: "incidents.incidents_opened" },
  "incidents.incidents_restored": { rows: "incidents.incidents_restored" },
  "incidents.mttr_p50_seconds": { rows: "incidents.incidents_restored" }
});
const DRILL_MEASURES = Object.keys(DRILLS);
const TERM = /^(NOT )?\{CUBE\}\.([a-z_][a-z0-9_]*)$/;
function modelOf(cube, dir) {
  const doc = parse(readFileSync(`${dir}/${cube}.yml`, "utf8"));
  const model = doc.cubes.find((c) => c.name === cube);
  if (!model) throw new Error(`schema/${cube}.yml has no cube ${cube}`);
  return model;
}
function flagsOf(measure, dir = SCHEMA_DIR) {
  const [cube, name] = measure.split(".");
  const model = modelOf(cube, dir);
  const m = model.measures?.find((x) => x.name === name);
  if (!m) throw new Error(`${measure} is not in schema/${cube}.yml`);
  const time = m.meta?.time_dimension;
  if (!time) throw new Error(`${measure} has no meta.time_dimension`);
  const flags = (m.filters ?? []).flatMap(
    (f) => f.sql.split(/\s+AND\s+/).map((term) => {
      const match = TERM.exec(term.trim());
      const dimension = match && model.dimensions?.find((d) => d.sql === match[2] && d.type === "boolean");
      if (!match || !dimension) throw new Error(`${measure}: filter term "${term}" is not a boolean dimension of ${cube}`);
      return { member: `${cube}.${dimension.name}`, value: match[1] === void 0 };
    })
  );
  return { time, flags };
}
const cache = /* @__PURE__ */ new Map();
function drillOf(measure) {
  if (!Object.hasOwn(DRILLS, measure)) return null;
  const hit = cache.get(measure);
  if (hit) return hit;
  const source = DRILLS[measure];
  const { time, flags } = flagsOf(source.rows);
  const marked = source.marked ? flagsOf(source.marked).flags.filter((f) => !flags.some((g) => g.member === f.member && g.value === f.value)) : [];
  const drill = { measure, kind: measure.slice(0, measure.indexOf(".")), time, flags, marked };
  cache.set(measure, drill);
  return drill;
}
export {
  DRILLS,
  DRILL_MEASURES,
  drillOf,
  flagsOf
};
