import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { SCHEMA_DIR } from "./compiler.js";
import { lastDay, monthIndex, monthOf, monthRange } from "./months.js";
import { toEnd, toStart } from "./query.js";
const ROLLUPS = [
  { cube: "author_activity", dimension: "author_activity.team_id", time: "author_activity.happened_at", measures: ["author_activity.active_authors"] },
  {
    cube: "pull_requests",
    dimension: "pull_requests.team_id",
    time: "pull_requests.merged_at",
    measures: [
      "pull_requests.prs_merged",
      "pull_requests.pr_cycle_time_p50_seconds",
      "pull_requests.ccv_total",
      "pull_requests.ceu_total",
      "pull_requests.ai_assisted_prs_merged",
      "pull_requests.ai_assisted_pr_share"
    ]
  },
  { cube: "ai_sessions", dimension: "ai_sessions.team_id", time: "ai_sessions.started_at", measures: ["ai_sessions.ai_sessions", "ai_sessions.ai_active_users"] },
  { cube: "ai_commits", dimension: "ai_commits.team_id", time: "ai_commits.committed_at", measures: ["ai_commits.ai_commits"] }
];
const ROLLUP_MONTHS = 60;
const MIGRATIONS_JOURNAL = fileURLToPath(new URL("../../migrations/meta/_journal.json", import.meta.url));
const PLANNER_PACKAGE = createRequire(import.meta.url).resolve("@cubejs-backend/schema-compiler/package.json");
const ROLLUP_FORMAT = 2;
let modelHash = null;
function rollupModel() {
  if (modelHash === null) {
    const planner = JSON.parse(readFileSync(PLANNER_PACKAGE, "utf8")).version;
    const hash = createHash("sha256").update(JSON.stringify({ format: ROLLUP_FORMAT, planner, rollups: ROLLUPS }));
    for (const name of readdirSync(SCHEMA_DIR).filter((n) => /\.ya?ml$/.test(n)).sort()) hash.update(name).update(readFileSync(`${SCHEMA_DIR}/${name}`));
    hash.update(readFileSync(MIGRATIONS_JOURNAL));
    modelHash = hash.digest("hex").slice(0, 32);
  }
  return modelHash;
}
const storedModel = (param) => `(${param} || ':' || (select coalesce(max(created_at), 0)::text from drizzle.__drizzle_migrations))`;
function monthRuns(months) {
  const runs = [];
  for (const m of [...months].sort()) {
    const run = runs.at(-1);
    if (run && monthIndex(m) === monthIndex(run.at(-1)) + 1) run.push(m);
    else runs.push([m]);
  }
  return runs;
}
function forMonths(q, run, whole = false) {
  const [first, last] = [run[0], run.at(-1)];
  const end = whole ? `${monthOf(monthIndex(last) + 1)}-01T00:00:00.000` : lastDay(last);
  return { ...q, timeDimensions: q.timeDimensions.map((t) => ({ ...t, dateRange: [`${first}-01`, end] })) };
}
function rollupQuery(rollup, run) {
  return forMonths(
    {
      measures: [...rollup.measures],
      dimensions: [rollup.dimension],
      segments: [],
      timeDimensions: [{ dimension: rollup.time, granularity: "month" }],
      filters: [],
      order: [],
      limit: Number.MAX_SAFE_INTEGER,
      timezone: "UTC",
      total: false,
      ungrouped: false,
      hiddenMeasures: []
    },
    run,
    true
  );
}
async function factsAfterRangeEnd(db, tenantId, month) {
  const { rows } = await db.query(
    `select exists (select 1 from pull_requests where tenant_id = $1 and merged_at > $2 and merged_at < $3)
         or exists (select 1 from commits where tenant_id = $1 and committed_at > $2 and committed_at < $3)
         or exists (select 1 from ai_sessions where tenant_id = $1 and started_at > $2 and started_at < $3) as found`,
    [tenantId, `${lastDay(month)}T23:59:59.999Z`, `${monthOf(monthIndex(month) + 1)}-01T00:00:00Z`]
  );
  return rows[0]?.found === true;
}
function matchRollup(q) {
  if (q.timezone !== "UTC" || q.ungrouped) return null;
  if (q.filters.length > 0 || q.segments.length > 0 || q.dimensions.length !== 1 || q.timeDimensions.length !== 1 || q.measures.length === 0) return null;
  const rollup = ROLLUPS.find((r) => r.dimension === q.dimensions[0]);
  const time = q.timeDimensions[0];
  if (!rollup || !time || time.dimension !== rollup.time || time.granularity !== "month" || !time.dateRange) return null;
  if (!q.measures.every((m) => rollup.measures.includes(m))) return null;
  const [start, end] = [toStart(time.dateRange[0]), toEnd(time.dateRange[1])];
  const [from, to] = [start.slice(0, 7), end.slice(0, 7)];
  if (start !== `${from}-01T00:00:00.000` || end !== `${lastDay(to)}T23:59:59.999` || from > to) return null;
  return { rollup, months: monthRange(from, to) };
}
async function currentMonths(db, tenantId, cube, months) {
  if (months.length === 0) return /* @__PURE__ */ new Map();
  const { rows } = await db.query(
    `select to_char(p.month, 'YYYY-MM') as month, p.rows
     from cube_rollups p
     where p.tenant_id = $1 and p.cube = $2 and p.month = any($3::date[]) and p.model = ${storedModel("$4")}
       and pg_snapshot_xmax(p.snapshot) <= pg_snapshot_xmax(pg_current_snapshot())
       and not exists (
         select 1 from cube_rollup_changes c
         where c.tenant_id = p.tenant_id and ((c.cube = p.cube and c.month = p.month) or c.cube = '*')
           and not pg_visible_in_snapshot(c.xid, p.snapshot))`,
    [tenantId, cube, months.map((m) => `${m}-01`), rollupModel()]
  );
  return new Map(rows.map((r) => [r.month, r.rows]));
}
const rowMonth = (rollup, row) => String(row[`${rollup.time}.month`]).slice(0, 7);
export {
  ROLLUPS,
  ROLLUP_MONTHS,
  currentMonths,
  factsAfterRangeEnd,
  forMonths,
  matchRollup,
  monthRuns,
  rollupModel,
  rollupQuery,
  rowMonth,
  storedModel
};
