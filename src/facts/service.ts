/**
 * Drill-through (issue 33): the facts behind a measure for a scope (a window of months, optionally
 * one team), read from the cube as ungrouped queries over the measure's own fact cube with the
 * flags its count measure filters on (definitions.ts). The REST endpoint, its CSV and the MCP tool
 * `list_facts` all come through here.
 */
import { splitFilter, type Split } from '../aiImpact/service.js';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { SAFE_CSV } from '../shared/csv.js';
import type pg from 'pg';
import { loadCube, type CompiledCube } from '../cube/compiler.js';
import { MAX_LIMIT, validateQuery } from '../cube/query.js';
import { loadRows, type Row } from '../cube/run.js';
import { AppError } from '../errors.js';
import { mayHaveReplacedDeployments } from '../deploymentSources/service.js';
import { resolveWindow } from '../shared/monthWindow.js';
import { DRILL_MEASURES, drillOf, type Drill } from './definitions.js';
import { decorate } from './decorate.js';
import { csvCells, KINDS, listColumns, memberOf, presentFact, type FactColumn, type FactRow, type FactsPage } from './presenters.js';
import { dayRange } from './window.js';
import type { FactsQuery } from './schemas.js';

export const FACTS_PER_PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a list is shown: only its marked rows, and in which order. */
export interface ListOptions {
  marked?: boolean;
  sort?: string;
  dir?: 'asc' | 'desc';
}

/** The drill of a measure, or a 400 naming the measures that have one. */
export function requireDrill(measure: string): Drill {
  const drill = drillOf(measure);
  if (drill) return drill;
  const message = `${measure} has no drill-through. Measures with one: ${DRILL_MEASURES.join(', ')}`;
  throw new AppError('validation_failed', message, [{ path: 'query.measure', message }]);
}

interface Resolved {
  drill: Drill;
  /** The rows listed apart (stored, counted nowhere: `drill.uncounted`), not the counted ones. */
  replaced: boolean;
  from: string;
  to: string;
  /** The window's first and last day. */
  days: [string, string];
  team: string | null;
  /** The team's slug (the CSV's file name says it, whether the team was named by slug or id). */
  teamSlug: string | null;
  teamName: string | null;
  /** The list's columns, the ones explaining the measure first. */
  columns: FactColumn[];
  /** One side of the AI split or one attribution level (a pull request or change lead time list only), else both. */
  split: Split | null;
}

/**
 * The team of a scope, by slug or id, among the tenant's own teams: an unknown team, or another
 * tenant's, is a 404 naming the value (an empty list would read as "none happened").
 */
async function requireTeam(pool: pg.Pool, tenantId: string, team: string): Promise<{ slug: string; name: string }> {
  const { rows } = await pool.query<{ slug: string; name: string }>(
    'select slug, name from teams where tenant_id = $1 and (slug = $2 or id::text = $3)',
    [tenantId, team, UUID.test(team) ? team.toLowerCase() : null],
  );
  if (!rows[0]) throw new AppError('not_found', `Team not found: "${team}" is no team of this organisation (teams.slug or teams.id)`, [{ path: 'query.team', message: 'No such team' }]);
  return rows[0];
}

type Scope = { measure: string; from?: string; to?: string; team?: string; replaced?: boolean; split?: Split };

async function resolve(pool: pg.Pool, tenantId: string, scope: Scope, options: ListOptions = {}): Promise<Resolved> {
  const drill = requireDrill(scope.measure);
  const columns = listColumns(drill.kind, drill.lead, scope.replaced === true);
  if (scope.replaced && !drill.uncounted) {
    const message = `${scope.measure} lists no replaced rows: only the production, finished and failed deployments do`;
    throw new AppError('validation_failed', message, [{ path: 'query.replaced', message }]);
  }
  if (scope.split && !SPLIT_CUBES.has(cubeOf(drill))) {
    const message = `${scope.measure} lists no pull requests: only a pull request or change lead time list splits into AI-assisted and not, or by AI attribution level`;
    throw new AppError('validation_failed', message, [{ path: 'query.split', message }]);
  }
  if (options.marked && drill.marked.length === 0) {
    const message = `${drill.measure}'s list marks no rows (every row counts): only a rate's list filters to its marked rows (deployments.change_failure_rate, pull_requests.ai_assisted_pr_share)`;
    throw new AppError('validation_failed', message, [{ path: 'query.marked', message }]);
  }
  if (options.sort !== undefined && !columns.some((c) => c.key === options.sort)) {
    const message = `Cannot sort on "${options.sort}": the list's columns are ${columns.map((c) => c.key).join(', ')}`;
    throw new AppError('validation_failed', message, [{ path: 'query.sort', message }]);
  }
  // As given (months or days), for meta and the CSV's name; the defaults are the export's months.
  const months = resolveWindow({ from: scope.from?.slice(0, 7), to: scope.to?.slice(0, 7) });
  const team = scope.team === undefined ? null : await requireTeam(pool, tenantId, scope.team);
  return { drill, replaced: scope.replaced === true, from: scope.from ?? months.from, to: scope.to ?? months.to, days: dayRange(scope), team: scope.team ?? null, teamSlug: team?.slug ?? null, teamName: team?.name ?? null, columns, split: scope.split ?? null };
}

const cubeOf = (drill: Drill) => KINDS[drill.kind].cube;
/** The cubes whose rows are PRs with an `ai_attribution` dimension: their lists split. */
const SPLIT_CUBES: ReadonlySet<string> = new Set(['pull_requests', 'change_lead_times']);
const splitOf = (r: Resolved) => (r.split === null ? [] : [splitFilter(r.split, cubeOf(r.drill))]);
const teamFilter = (r: Resolved) => (r.team === null ? [] : [{ member: UUID.test(r.team) ? 'teams.id' : 'teams.slug', operator: 'equals', values: [UUID.test(r.team) ? r.team.toLowerCase() : r.team] }]);
/** A grouped list: a distinct count's values or a sum's rows, not one row per fact. */
const isGrouped = (drill: Drill) => drill.key !== null || drill.sum !== null;
/** The window, on the list's time dimension; none for a cube without one (memberships: current). */
const windowOf = (r: Resolved) => (r.drill.time === null ? [] : [{ dimension: r.drill.time, dateRange: r.days }]);
/**
 * The flags every row of the list has: the rows measure's; for the replaced rows the same with the
 * uncounted flag true (a replaced row would be counted but for its source's period).
 */
const flagsOf = (r: Resolved) =>
  r.drill.flags.map((f) => ({ member: f.member, operator: 'equals', values: [String(r.replaced && f.member === r.drill.uncounted?.flag ? true : f.value)] }));
/** Members of an ungrouped list: the kind's measures read per row go to `measures`, the rest are dimensions. */
const isRowMeasure = (drill: Drill, member: string) => (KINDS[drill.kind].rowMeasures ?? []).some((m) => memberOf(drill.kind, m) === member);

/** The ungrouped cube query of the list: the rows measure's flags, the window, the team; newest first. */
function listQuery(r: Resolved, members: string[], extra: Record<string, unknown>[] = []) {
  const cube = cubeOf(r.drill);
  const team = teamFilter(r);
  // An ungrouped query names the primary key of every cube it joins (the team filter joins teams,
  // through projects for issues); many-to-one joins, so no row is repeated.
  const joined = r.team === null ? [] : cube === 'issues' ? ['projects.id', 'teams.id'] : ['teams.id'];
  const time = r.drill.time === null ? [] : [r.drill.time];
  const measures = members.filter((m) => isRowMeasure(r.drill, m));
  return {
    dimensions: [...new Set([`${cube}.id`, ...time, ...members.filter((m) => !measures.includes(m)), ...joined])],
    ...(measures.length > 0 ? { measures } : {}),
    timeDimensions: windowOf(r),
    filters: [...flagsOf(r), ...team, ...splitOf(r), ...extra],
    order: [...time.map((t) => [t, 'desc']), [`${cube}.id`, 'asc']],
    ungrouped: true,
    limit: MAX_LIMIT,
  };
}

/** Every member a full row of the kind reads. */
const fullMembers = (r: Resolved) => [...KINDS[r.drill.kind].dimensions, ...(KINDS[r.drill.kind].rowMeasures ?? [])].map((d) => memberOf(r.drill.kind, d));

/**
 * The grouped cube query of a distinct count's or a sum's list: one row per value the measure
 * counts (its key dimension; for a sum the cube's own rows, a team's month), in the window, for the
 * team, with the measures the rows show. Grouped, so a session of a person on two teams is one row,
 * as the distinct count counts it once.
 */
function groupedQuery(r: Resolved) {
  const spec = KINDS[r.drill.kind];
  const dimensions = spec.dimensions.map((d) => memberOf(r.drill.kind, d));
  const key = r.drill.key ?? dimensions[0]!;
  return {
    dimensions,
    measures: spec.measures ?? [],
    timeDimensions: windowOf(r),
    filters: [
      ...flagsOf(r),
      ...(r.drill.key ? [{ member: r.drill.key, operator: 'set' }] : []),
      ...teamFilter(r),
    ],
    order: [...(spec.order ?? []), [key, 'asc']],
    limit: MAX_LIMIT,
  };
}

async function run(pool: pg.Pool, cube: CompiledCube, tenantId: string, query: unknown): Promise<Row[]> {
  const { rows, total } = await loadRows(pool, cube, tenantId, validateQuery(cube, query), { rollups: false });
  if (total > MAX_LIMIT) throw new AppError('validation_failed', `The list has ${total} rows, more than ${MAX_LIMIT}: narrow the window or pick a team`, [{ path: 'query', message: 'Too many rows' }]);
  return rows;
}

/** A replaced row is marked by nothing: it counts in no numerator. */
const isMarked = (r: Resolved, row: Row) => !r.replaced && r.drill.marked.length > 0 && r.drill.marked.every((f) => row[f.member] === f.value);

/**
 * How many replaced rows the scope has for a list that may have some (their keys only); null for
 * the others. 0 without listing them when no project of the tenant has rows of a source other than
 * its current one (most tenants never switch a source): a few index probes instead of the list.
 */
async function replacedCount(pool: pg.Pool, cube: CompiledCube, tenantId: string, r: Resolved, listed: number): Promise<number | null> {
  if (!r.drill.uncounted) return null;
  if (r.replaced) return listed;
  if (!(await mayHaveReplacedDeployments(pool, tenantId))) return 0;
  return (await run(pool, cube, tenantId, listQuery({ ...r, replaced: true }, []))).length;
}

/** A cell as its column sorts: numbers as numbers, booleans false before true, text and ISO times as text; null is null. */
function sortValue(type: FactColumn['type'], v: unknown): number | string | null {
  if (v === null || v === undefined) return null;
  if (type === 'number' || type === 'seconds') return Number(v);
  if (type === 'boolean') return v === true || v === 'true' ? 1 : 0;
  return String(v);
}

/** A stable sort (ties keep the list's own order, newest first); null last in either direction. */
function sortBy<T>(items: T[], value: (item: T) => number | string | null, dir: 'asc' | 'desc'): T[] {
  const sign = dir === 'desc' ? -1 : 1;
  return items.map((item) => ({ item, v: value(item) })).sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? 0 : a.v === null ? 1 : -1;
    return sign * (typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v), 'en'));
  }).map((x) => x.item);
}

/** The direction a sort takes when none is given: numbers, durations and times largest first; text A to Z. */
const defaultDir = (column: FactColumn): 'asc' | 'desc' => (column.type === 'text' || column.type === 'url' ? 'asc' : 'desc');

/** The median and 90th percentile of a median's list, as the cube computes them for the scope. */
async function percentilesOf(pool: pg.Pool, cube: CompiledCube, tenantId: string, r: Resolved): Promise<FactsPage['meta']['percentiles']> {
  const p = r.drill.percentiles;
  if (p === null) return null;
  const [row] = await run(pool, cube, tenantId, { measures: [r.drill.measure, p.p90], timeDimensions: windowOf(r), filters: teamFilter(r), limit: 1 });
  const value = (m: string) => (row?.[m] === null || row?.[m] === undefined ? null : Number(row[m]));
  return { column: p.column, p50: value(r.drill.measure), p90: value(p.p90) };
}

interface Shown {
  page: number;
  total: number;
  marked: number;
  matching: number;
  sum: { column: string; value: number } | null;
  sort: { column: string; dir: 'asc' | 'desc' } | null;
  filter: 'marked' | null;
  percentiles: FactsPage['meta']['percentiles'];
  /** How many replaced rows the scope has (null for a list that has none by rule). */
  replaced: number | null;
}

function meta(r: Resolved, shown: Shown): FactsPage['meta'] {
  const spec = KINDS[r.drill.kind];
  const markedColumn = r.drill.marked.length > 0 && !r.replaced ? (spec.markedColumn?.[r.drill.marked[0]!.member] ?? null) : null;
  return {
    page: shown.page, perPage: FACTS_PER_PAGE, total: shown.total, marked: shown.marked, markedColumn, sum: shown.sum,
    measure: r.drill.measure, kind: r.drill.kind, from: r.from, to: r.to, team: r.team, teamName: r.teamName, columns: r.columns,
    filter: shown.filter, matching: shown.matching, sort: shown.sort, percentiles: shown.percentiles,
    replaced: shown.replaced, listing: r.replaced ? 'replaced' : 'counted',
  };
}

const sortOf = (r: Resolved, options: ListOptions) => {
  const column = options.sort === undefined ? undefined : r.columns.find((c) => c.key === options.sort);
  return column ? { column, dir: options.dir ?? defaultDir(column) } : null;
};

/**
 * Every row of the list, presented, named and linked, filtered and sorted as asked (the CSV, a
 * grouped list, and a sort on a column no single cube member holds: the reason, a name).
 */
async function wholeList(pool: pg.Pool, tenantId: string, r: Resolved, options: ListOptions): Promise<{ rows: FactRow[]; shown: Omit<Shown, 'page' | 'percentiles' | 'replaced'> }> {
  const cube = await loadCube();
  const kind = r.drill.kind;
  let rows: FactRow[];
  let marked = 0;
  let total: number;
  let sum: Shown['sum'] = null;
  if (isGrouped(r.drill)) {
    const cubeRows = await run(pool, cube, tenantId, groupedQuery(r));
    const sumColumn = r.drill.sum ? KINDS[kind].sumColumn?.[r.drill.sum] : undefined;
    if (sumColumn !== undefined) sum = { column: sumColumn, value: cubeRows.reduce((acc, row) => acc + Number(row[r.drill.sum!] ?? 0), 0) };
    rows = cubeRows.map((row) => presentFact(kind, row, r.columns));
    total = rows.length;
  } else {
    // The marked flags too: a flag the row's columns do not show (deployments.any_source_failed) still marks it.
    const cubeRows = await run(pool, cube, tenantId, listQuery(r, [...new Set([...fullMembers(r), ...r.drill.marked.map((f) => f.member)])]));
    const markedRows = cubeRows.filter((row) => isMarked(r, row));
    marked = markedRows.length;
    total = cubeRows.length;
    rows = (options.marked ? markedRows : cubeRows).map((row) => presentFact(kind, row, r.columns));
    if (r.drill.rowSum) sum = rowSumOf(r, cubeRows);
  }
  await decorate(pool, tenantId, kind, rows);
  const sort = sortOf(r, options);
  const sorted = sort ? sortBy(rows, (row) => sortValue(sort.column.type, (row as unknown as Record<string, unknown>)[sort.column.key]), sort.dir) : rows;
  return { rows: sorted, shown: { total, marked, matching: sorted.length, sum, sort: sort && { column: sort.column.key, dir: sort.dir }, filter: options.marked ? 'marked' : null } };
}

/** A sum's value over the listed rows (ccv_total: each PR's change volume), as the cube reads it per row. */
function rowSumOf(r: Resolved, rows: Row[]): Shown['sum'] {
  const member = KINDS[r.drill.kind].sortBy?.[r.drill.rowSum!];
  if (!member) return null;
  const m = memberOf(r.drill.kind, member);
  return { column: r.drill.rowSum!, value: rows.reduce((acc, row) => acc + Number(row[m] ?? 0), 0) };
}

/**
 * One page of the facts behind a measure (50 rows, newest first unless sorted), with the list's
 * count and the marked count. The whole list is read with its keys, flags and the sorted column
 * only; the page's rows with every column (the columns that say why are subqueries, worth running
 * for 50 rows, not for thousands).
 */
export async function listFacts(pool: pg.Pool, tenantId: string, query: Scope & { page: number } & ListOptions): Promise<FactsPage> {
  const r = await resolve(pool, tenantId, query, query);
  const cube = await loadCube();
  const percentiles = await percentilesOf(pool, cube, tenantId, r);
  const slice = <T>(items: T[]) => items.slice((query.page - 1) * FACTS_PER_PAGE, query.page * FACTS_PER_PAGE);
  const kind = r.drill.kind;
  const sort = sortOf(r, query);
  const sortMember = sort ? KINDS[kind].sortBy?.[sort.column.key] : undefined;
  if (isGrouped(r.drill) || (sort && sortMember === undefined)) {
    const { rows, shown } = await wholeList(pool, tenantId, r, query);
    return { data: slice(rows), meta: meta(r, { ...shown, page: query.page, percentiles, replaced: await replacedCount(pool, cube, tenantId, r, shown.total) }) };
  }
  const sortKey = sortMember === undefined ? null : memberOf(kind, sortMember);
  const rowSumKey = r.drill.rowSum ? KINDS[kind].sortBy?.[r.drill.rowSum] : undefined;
  const keyMembers = [...r.drill.marked.map((f) => f.member), ...(sortKey ? [sortKey] : []), ...(rowSumKey ? [memberOf(kind, rowSumKey)] : [])];
  const keys = await run(pool, cube, tenantId, listQuery(r, [...new Set(keyMembers)]));
  const markedKeys = keys.filter((row) => isMarked(r, row));
  // The kind's cube: a kind of its own (the PR phases) may list another kind's cube.
  const of = cubeOf(r.drill);
  const listed = query.marked ? markedKeys : keys;
  const ordered = sort && sortKey ? sortBy(listed, (row) => sortValue(sort.column.type, row[sortKey]), sort.dir) : listed;
  const ids = slice(ordered).map((row) => String(row[`${of}.id`]));
  const page = ids.length === 0 ? [] : await run(pool, cube, tenantId, listQuery(r, fullMembers(r), [{ member: `${of}.id`, operator: 'equals', values: ids }]));
  const byId = new Map(page.map((row) => [String(row[`${of}.id`]), row]));
  const data = ids.map((id) => byId.get(id)).filter((row): row is Row => row !== undefined).map((row) => presentFact(kind, row, r.columns));
  await decorate(pool, tenantId, kind, data);
  return {
    data,
    meta: meta(r, {
      page: query.page, total: keys.length, marked: markedKeys.length, matching: listed.length, percentiles,
      sum: r.drill.rowSum ? rowSumOf(r, keys) : null,
      sort: sort && { column: sort.column.key, dir: sort.dir }, filter: query.marked ? 'marked' : null,
      replaced: await replacedCount(pool, cube, tenantId, r, keys.length),
    }),
  };
}

/** The whole list as CSV: a header of the JSON keys (id first), one line per fact, csv-stringify quoting; filtered and sorted as asked. */
export async function factsCsv(pool: pg.Pool, tenantId: string, scope: Scope & ListOptions): Promise<{ filename: string; body: Readable }> {
  const r = await resolve(pool, tenantId, scope, scope);
  const { rows } = await wholeList(pool, tenantId, r, scope);
  const header = ['id', ...r.columns.map((c) => c.key)];
  const body = Readable.from(rows.map((row) => csvCells(r.columns, row))).pipe(stringify({ ...SAFE_CSV, header: true, columns: header }));
  const filename = `facts-${r.drill.measure.replace('.', '-')}-${r.replaced ? 'replaced-' : ''}${r.split ? `${r.split}-` : ''}${r.teamSlug ? `${r.teamSlug}-` : ''}${scope.marked ? 'marked-' : ''}${r.from}-${r.to}.csv`;
  return { filename, body };
}
