/**
 * Monthly rollups (Cube's "pre-aggregations") of the heaviest cubes, kept in PostgreSQL and never
 * stale (docs/rollups.md).
 *
 * A rollup month stores exactly the rows Cube's planner returns for the rollup's query
 * (its measures by team and month) for that month, computed in one snapshot. Triggers record which
 * (tenant, cube, month) every writing transaction may have changed (migration 0016); a stored month
 * is used only when all those changes were committed before its snapshot. Any other month of a
 * query is planned and read from the facts as before, so an answer is the same with or without
 * rollups: they only change how fast it comes. Measures stay defined once, in `schema/`.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { SCHEMA_DIR } from './compiler.js';
import { lastDay, monthIndex, monthOf, monthRange } from '../shared/monthWindow.js';
import { toEnd, toStart, type ValidQuery } from './query.js';
import type { Queryable, Row } from './plan.js';

const { escapeLiteral } = pg;

export interface RollupDefinition {
  cube: string;
  /** The one dimension the rollup groups by (besides the month). */
  dimension: string;
  /** The time dimension whose month the rows are grouped by. */
  time: string;
  measures: readonly string[];
}

/**
 * The cubes whose team × month queries dominate the team-baseline export. Deployments, issues,
 * incidents and change lead times are not rolled up: a later fact (a rollback, an incident, a
 * recovery, a deployment that ships earlier merges) changes earlier months in ways a trigger cannot
 * bound cheaply, and they are quick enough read from the facts.
 */
export const ROLLUPS: readonly RollupDefinition[] = [
  { cube: 'author_activity', dimension: 'author_activity.team_id', time: 'author_activity.happened_at', measures: ['author_activity.active_authors'] },
  {
    cube: 'pull_requests', dimension: 'pull_requests.team_id', time: 'pull_requests.merged_at',
    measures: [
      'pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.ccv_total', 'pull_requests.ceu_total',
      'pull_requests.ai_assisted_prs_merged', 'pull_requests.ai_assisted_pr_share',
    ],
  },
  { cube: 'ai_sessions', dimension: 'ai_sessions.team_id', time: 'ai_sessions.started_at', measures: ['ai_sessions.ai_sessions', 'ai_sessions.ai_active_users'] },
  { cube: 'ai_commits', dimension: 'ai_commits.team_id', time: 'ai_commits.committed_at', measures: ['ai_commits.ai_commits'] },
];

/** Months kept rolled up: this many up to the current one (never before the tenant's first fact). */
export const ROLLUP_MONTHS = 60;


const MIGRATIONS_JOURNAL = fileURLToPath(new URL('../../migrations/meta/_journal.json', import.meta.url));
const PLANNER_PACKAGE = createRequire(import.meta.url).resolve('@cubejs-backend/schema-compiler/package.json');
/** Bump when the code that computes or stores a month's rows changes (2: months stored whole). */
const ROLLUP_FORMAT = 2;
let modelHash: string | null = null;

/**
 * Identifies what this code computes a month with: the models, the rollup definitions, the format
 * of the stored rows, the planner's version and the migrations it ships (the views). After an
 * upgrade that changes any of them, stored months are ignored and rebuilt.
 */
export function rollupModel(): string {
  if (modelHash === null) {
    const planner = (JSON.parse(readFileSync(PLANNER_PACKAGE, 'utf8')) as { version: string }).version;
    const hash = createHash('sha256').update(JSON.stringify({ format: ROLLUP_FORMAT, planner, rollups: ROLLUPS }));
    for (const name of readdirSync(SCHEMA_DIR).filter((n) => /\.ya?ml$/.test(n)).sort()) hash.update(name).update(readFileSync(`${SCHEMA_DIR}/${name}`));
    hash.update(readFileSync(MIGRATIONS_JOURNAL));
    modelHash = hash.digest('hex').slice(0, 32);
  }
  return modelHash;
}

/**
 * SQL for the model a month is stored with and compared to: this code's (`rollupModel()`, bound as
 * `param`) and the last migration the database has applied. A server may run against a database a
 * newer instance has migrated (it starts, saying so); a month it stored before that migration may
 * differ from what the changed views now give, so it is stale to every instance.
 */
export const storedModel = (param: string) => `(${param} || ':' || (select coalesce(max(created_at), 0)::text from drizzle.__drizzle_migrations))`;


/** Consecutive months grouped into runs, so each run is one date range. */
export function monthRuns(months: readonly string[]): string[][] {
  const runs: string[][] = [];
  for (const m of [...months].sort()) {
    const run = runs.at(-1);
    if (run && monthIndex(m) === monthIndex(run.at(-1) as string) + 1) run.push(m);
    else runs.push([m]);
  }
  return runs;
}

/**
 * The query restricted to months `run[0]`..`run.at(-1)` of its time dimension. A Cube date range
 * ends at 23:59:59.999 of its last day, so a fact in the last microseconds of the month (after
 * that instant) is left out, as in any query whose range ends with that month. `whole` takes every
 * instant of the months instead: the range ends at the first instant of the next month, whose
 * rows the caller drops.
 */
export function forMonths(q: ValidQuery, run: readonly string[], whole = false): ValidQuery {
  const [first, last] = [run[0] as string, run.at(-1) as string];
  const end = whole ? `${monthOf(monthIndex(last) + 1)}-01T00:00:00.000` : lastDay(last);
  return { ...q, timeDimensions: q.timeDimensions.map((t) => ({ ...t, dateRange: [`${first}-01`, end] as [string, string] })) };
}

/** The planner query a rollup stores, for a run of months: each month whole (see forMonths). */
export function rollupQuery(rollup: RollupDefinition, run: readonly string[]): ValidQuery {
  return forMonths(
    {
      measures: [...rollup.measures], dimensions: [rollup.dimension], segments: [], timeDimensions: [{ dimension: rollup.time, granularity: 'month' }],
      filters: [], order: [], limit: Number.MAX_SAFE_INTEGER, timezone: 'UTC', total: false, ungrouped: false, hiddenMeasures: [],
    },
    run,
    true,
  );
}

/**
 * Whether a fact of any rolled-up cube lies after 23:59:59.999 of the month's last day (a
 * timestamp with microseconds): then the stored month, which holds the whole month, differs from
 * the month at the end of a Cube date range. Every rolled-up view takes its time from one of these
 * columns (pull_requests.merged_at, commits.committed_at, ai_sessions.started_at).
 */
export async function factsAfterRangeEnd(db: Queryable, tenantId: string, month: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(`select ${factsAfterSql('$1', '$2', '$3')} as found`, [tenantId, ...afterRangeEnd(month)]);
  return rows[0]?.found === true;
}

/** The instants between which a fact lies after the month's range end (exclusive both). */
const afterRangeEnd = (month: string): [string, string] => [`${lastDay(month)}T23:59:59.999Z`, `${monthOf(monthIndex(month) + 1)}-01T00:00:00Z`];

const factsAfterSql = (tenant: string, from: string, to: string) =>
  `(exists (select 1 from pull_requests where tenant_id = ${tenant} and merged_at > ${from} and merged_at < ${to})
         or exists (select 1 from commits where tenant_id = ${tenant} and committed_at > ${from} and committed_at < ${to})
         or exists (select 1 from ai_sessions where tenant_id = ${tenant} and started_at > ${from} and started_at < ${to}))`;

/**
 * The rollup that can answer a single-cube query, and the months it covers: exactly the rollup's
 * dimension, its time dimension by month over whole months, a subset of its measures, no filters
 * or segments, in UTC. (Medians and distinct counts cannot be combined from finer or coarser groups, so
 * only this exact shape qualifies, as in Cube's own rollup matching for non-additive measures.)
 */
export function matchRollup(q: ValidQuery): { rollup: RollupDefinition; months: string[] } | null {
  // Stored months are UTC calendar months of grouped rows.
  if (q.timezone !== 'UTC' || q.ungrouped) return null;
  if (q.filters.length > 0 || q.segments.length > 0 || q.dimensions.length !== 1 || q.timeDimensions.length !== 1 || q.measures.length === 0) return null;
  const rollup = ROLLUPS.find((r) => r.dimension === q.dimensions[0]);
  const time = q.timeDimensions[0];
  if (!rollup || !time || time.dimension !== rollup.time || time.granularity !== 'month' || !time.dateRange) return null;
  if (!q.measures.every((m) => rollup.measures.includes(m))) return null;
  const [start, end] = [toStart(time.dateRange[0]), toEnd(time.dateRange[1])];
  const [from, to] = [start.slice(0, 7), end.slice(0, 7)];
  if (start !== `${from}-01T00:00:00.000` || end !== `${lastDay(to)}T23:59:59.999` || from > to) return null;
  return { rollup, months: monthRange(from, to) };
}

/**
 * The stored months of `months` that are current: computed with today's models, and every change
 * recorded for them (or for the whole tenant) committed before their snapshot. A snapshot that
 * lies ahead of this cluster's transaction ids (a dump restored into a cluster that numbers them
 * lower) would take later writes for earlier ones: such a month is never current.
 */
export async function currentMonths(db: Queryable, tenantId: string, cube: string, months: readonly string[]): Promise<Map<string, Row[]>> {
  if (months.length === 0) return new Map();
  const { rows } = await db.query<{ month: string; rows: Row[] }>(currentMonthsSql('$1', '$2', '$3::date[]', '$4'), [tenantId, cube, months.map((m) => `${m}-01`), rollupModel()]);
  return new Map(rows.map((r) => [r.month, r.rows]));
}

const currentMonthsSql = (tenant: string, cube: string, months: string, model: string) =>
  `select to_char(p.month, 'YYYY-MM') as month, p.rows
     from cube_rollups p
     where p.tenant_id = ${tenant} and p.cube = ${cube} and p.month = any(${months}) and p.model = ${storedModel(model)}
       and pg_snapshot_xmax(p.snapshot) <= pg_snapshot_xmax(pg_current_snapshot())
       and not exists (
         select 1 from cube_rollup_changes c
         where c.tenant_id = p.tenant_id and ((c.cube = p.cube and c.month = p.month) or c.cube = '*')
           and not pg_visible_in_snapshot(c.xid, p.snapshot))`;

/**
 * `currentMonths` and, for the last month, `factsAfterRangeEnd`, as one statement with its values
 * written in as literals: it is sent in the simple query that opens the reading transaction
 * (src/cube/run.ts), so the rollup check costs no round trip of its own. Its rows: the current
 * months (`month`, `rows`), then one row whose `after` says whether a fact lies after the last
 * month's range end. `readRollupCheck` reads them.
 */
export function rollupCheckSql(tenantId: string, cube: string, months: readonly string[]): string {
  const lit = escapeLiteral;
  const array = `array[${months.map((m) => `${lit(`${m}-01`)}::date`).join(', ')}]::date[]`;
  const [from, to] = afterRangeEnd(months.at(-1) as string).map((t) => `${lit(t)}::timestamptz`) as [string, string];
  return `select month, rows, null::boolean as after from (${currentMonthsSql(`${lit(tenantId)}::uuid`, lit(cube), array, lit(rollupModel()))}) current
     union all select null, null, ${factsAfterSql(`${lit(tenantId)}::uuid`, from, to)}`;
}

/** The current stored months of a `rollupCheckSql` answer, the last dropped when facts lie after its range end. */
export function readRollupCheck(rows: { month: string | null; rows: Row[] | null; after: boolean | null }[], months: readonly string[]): Map<string, Row[]> {
  const stored = new Map<string, Row[]>();
  let after = false;
  for (const r of rows) {
    if (r.month === null) after = r.after === true;
    else stored.set(r.month, r.rows as Row[]);
  }
  // A stored month holds the whole month; as the last month of a Cube date range (which ends at
  // 23:59:59.999) it is used only when no fact lies after that instant.
  if (after) stored.delete(months.at(-1) as string);
  return stored;
}

/** The month (YYYY-MM) a row of a rollup query belongs to. */
export const rowMonth = (rollup: RollupDefinition, row: Row) => String(row[`${rollup.time}.month`]).slice(0, 7);
