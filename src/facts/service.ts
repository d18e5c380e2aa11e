/**
 * Drill-through (issue 33): the facts behind a measure for a scope (a window of months, optionally
 * one team), read from the cube as ungrouped queries over the measure's own fact cube with the
 * flags its count measure filters on (definitions.ts). The REST endpoint, its CSV and the MCP tool
 * `list_facts` all come through here.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { SAFE_CSV } from '../shared/csv.js';
import type pg from 'pg';
import { z } from 'zod';
import { loadCube, type CompiledCube } from '../cube/compiler.js';
import { MAX_LIMIT, validateQuery } from '../cube/query.js';
import { loadRows, type Row } from '../cube/run.js';
import { AppError } from '../errors.js';
import { resolveWindow } from '../exports/baseline.js';
import { DRILL_MEASURES, drillOf, type Drill } from './definitions.js';
import { csvCells, KINDS, memberOf, presentFact, type FactRow, type FactsPage } from './presenters.js';
import { checkFactsWindow, dayRange, FactsWindow } from './window.js';
import { splitFilter, type Side } from '../aiImpact/service.js';

export const FACTS_PER_PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A measure, a window of months or days (at most 36 months, as the dashboards and the baseline
 * export: window.ts), a team (slug or id), a page.
 */
export const FactsQuery = FactsWindow.extend({
  measure: z.string().min(1).max(201),
  team: z.string().min(1).max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  format: z.enum(['json', 'csv'], { message: 'Must be json or csv' }).optional(),
  /** `true`: the rows stored but replaced by another deployment source (one source per period), listed apart. */
  replaced: z.enum(['true', 'false'], { message: 'Must be true or false' }).optional().transform((v) => v === 'true'),
  /** One side of "AI against not" (docs/ai-impact.md): the AI-assisted PRs or the others; pull request lists only. */
  split: z.enum(['ai', 'other'], { message: 'Must be ai or other' }).optional(),
}).superRefine(checkFactsWindow);
export type FactsQuery = z.infer<typeof FactsQuery>;

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
  /** One side of the AI split (a pull request list only), else both. */
  split: Side | null;
}

/**
 * The team of a scope, by slug or id, among the tenant's own teams: an unknown team, or another
 * tenant's, is a 404 naming the value (an empty list would read as "none happened").
 */
async function requireTeam(pool: pg.Pool, tenantId: string, team: string): Promise<{ slug: string }> {
  const { rows } = await pool.query<{ slug: string }>(
    'select slug from teams where tenant_id = $1 and (slug = $2 or id::text = $3)',
    [tenantId, team, UUID.test(team) ? team.toLowerCase() : null],
  );
  if (!rows[0]) throw new AppError('not_found', `Team not found: "${team}" is no team of this organisation (teams.slug or teams.id)`, [{ path: 'query.team', message: 'No such team' }]);
  return rows[0];
}

type Scope = { measure: string; from?: string; to?: string; team?: string; replaced?: boolean; split?: Side };

async function resolve(pool: pg.Pool, tenantId: string, scope: Scope): Promise<Resolved> {
  const drill = requireDrill(scope.measure);
  if (scope.replaced && !drill.uncounted) {
    const message = `${scope.measure} lists no replaced rows: only the production, finished and failed deployments do`;
    throw new AppError('validation_failed', message, [{ path: 'query.replaced', message }]);
  }
  if (scope.split && cubeOf(drill) !== 'pull_requests') {
    const message = `${scope.measure} lists no pull requests: only a pull request list splits into AI-assisted and not`;
    throw new AppError('validation_failed', message, [{ path: 'query.split', message }]);
  }
  // As given (months or days), for meta and the CSV's name; the defaults are the export's months.
  const months = resolveWindow({ from: scope.from?.slice(0, 7), to: scope.to?.slice(0, 7) });
  const team = scope.team === undefined ? null : await requireTeam(pool, tenantId, scope.team);
  return { drill, replaced: scope.replaced === true, from: scope.from ?? months.from, to: scope.to ?? months.to, days: dayRange(scope), team: scope.team ?? null, teamSlug: team?.slug ?? null, split: scope.split ?? null };
}

const cubeOf = (drill: Drill) => KINDS[drill.kind].cube;
const splitOf = (r: Resolved) => (r.split === null ? [] : [splitFilter(r.split)]);
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

/** The ungrouped cube query of the list: the rows measure's flags, the window, the team; newest first. */
function listQuery(r: Resolved, dimensions: string[], extra: Record<string, unknown>[] = []) {
  const cube = cubeOf(r.drill);
  const team = teamFilter(r);
  // An ungrouped query names the primary key of every cube it joins (the team filter joins teams,
  // through projects for issues); many-to-one joins, so no row is repeated.
  const joined = r.team === null ? [] : cube === 'issues' ? ['projects.id', 'teams.id'] : ['teams.id'];
  const time = r.drill.time === null ? [] : [r.drill.time];
  return {
    dimensions: [...new Set([`${cube}.id`, ...time, ...dimensions, ...joined])],
    timeDimensions: windowOf(r),
    filters: [...flagsOf(r), ...team, ...splitOf(r), ...extra],
    order: [...time.map((t) => [t, 'desc']), [`${cube}.id`, 'asc']],
    ungrouped: true,
    limit: MAX_LIMIT,
  };
}

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

/** How many replaced rows the scope has for a list that may have some (their keys only); null for the others. */
async function replacedCount(pool: pg.Pool, cube: CompiledCube, tenantId: string, r: Resolved, listed: number): Promise<number | null> {
  if (!r.drill.uncounted) return null;
  if (r.replaced) return listed;
  return (await run(pool, cube, tenantId, listQuery({ ...r, replaced: true }, []))).length;
}

function meta(r: Resolved, page: number, total: number, marked: number, sum: number | null = null, replaced: number | null = null): FactsPage['meta'] {
  const spec = KINDS[r.drill.kind];
  const markedColumn = r.drill.marked.length > 0 && !r.replaced ? (spec.markedColumn?.[r.drill.marked[0]!.member] ?? null) : null;
  const sumColumn = r.drill.sum ? spec.sumColumn?.[r.drill.sum] : undefined;
  return {
    page, perPage: FACTS_PER_PAGE, total, marked, markedColumn, replaced, listing: r.replaced ? 'replaced' : 'counted',
    sum: sumColumn === undefined || sum === null ? null : { column: sumColumn, value: sum },
    measure: r.drill.measure, kind: r.drill.kind, from: r.from, to: r.to, team: r.team, columns: spec.columns,
  };
}

/** A grouped list whole (its rows are few columns, no subqueries): the rows, and the sum the number is. */
async function groupedFacts(pool: pg.Pool, tenantId: string, r: Resolved): Promise<{ rows: FactRow[]; sum: number | null }> {
  const rows = await run(pool, await loadCube(), tenantId, groupedQuery(r));
  const sum = r.drill.sum === null ? null : rows.reduce((acc, row) => acc + Number(row[r.drill.sum!] ?? 0), 0);
  return { rows: rows.map((row) => presentFact(r.drill.kind, row)), sum };
}

/**
 * One page of the facts behind a measure (50 rows, newest first), with the list's count and the
 * marked count. The whole list is read with its keys and flags only; the page's rows with every
 * column (the columns that say why are subqueries, worth running for 50 rows, not for thousands).
 */
export async function listFacts(pool: pg.Pool, tenantId: string, query: Scope & { page: number }): Promise<FactsPage> {
  const r = await resolve(pool, tenantId, query);
  if (isGrouped(r.drill)) {
    const { rows, sum } = await groupedFacts(pool, tenantId, r);
    return { data: rows.slice((query.page - 1) * FACTS_PER_PAGE, query.page * FACTS_PER_PAGE), meta: meta(r, query.page, rows.length, 0, sum) };
  }
  const cube = await loadCube();
  const kind = r.drill.kind;
  // The kind's cube: a kind of its own (the PR phases) may list another kind's cube.
  const of = cubeOf(r.drill);
  const keys = await run(pool, cube, tenantId, listQuery(r, r.drill.marked.map((f) => f.member)));
  const marked = keys.filter((row) => isMarked(r, row)).length;
  const ids = keys.slice((query.page - 1) * FACTS_PER_PAGE, query.page * FACTS_PER_PAGE).map((row) => String(row[`${of}.id`]));
  const rows = ids.length === 0 ? [] : await run(pool, cube, tenantId, listQuery(r, KINDS[kind].dimensions.map((d) => memberOf(kind, d)), [{ member: `${of}.id`, operator: 'equals', values: ids }]));
  const replaced = await replacedCount(pool, cube, tenantId, r, keys.length);
  return { data: rows.map((row) => presentFact(kind, row)), meta: meta(r, query.page, keys.length, marked, null, replaced) };
}

/** Every fact behind a measure for the scope, newest first. */
export async function allFacts(pool: pg.Pool, tenantId: string, scope: Scope): Promise<{ rows: FactRow[]; meta: FactsPage['meta'] }> {
  return allFactsOf(pool, tenantId, await resolve(pool, tenantId, scope));
}

async function allFactsOf(pool: pg.Pool, tenantId: string, r: Resolved): Promise<{ rows: FactRow[]; meta: FactsPage['meta'] }> {
  if (isGrouped(r.drill)) {
    const { rows, sum } = await groupedFacts(pool, tenantId, r);
    return { rows, meta: meta(r, 1, rows.length, 0, sum) };
  }
  const cube = await loadCube();
  const kind = r.drill.kind;
  const rows = await run(pool, cube, tenantId, listQuery(r, KINDS[kind].dimensions.map((d) => memberOf(kind, d))));
  const facts = rows.map((row) => presentFact(kind, row));
  return { rows: facts, meta: meta(r, 1, facts.length, rows.filter((row) => isMarked(r, row)).length, null, await replacedCount(pool, cube, tenantId, r, facts.length)) };
}

/** The whole list as CSV: a header of the JSON keys (id first), one line per fact, csv-stringify quoting. */
export async function factsCsv(pool: pg.Pool, tenantId: string, scope: Scope): Promise<{ filename: string; body: Readable }> {
  const r = await resolve(pool, tenantId, scope);
  const { rows, meta: m } = await allFactsOf(pool, tenantId, r);
  const header = ['id', ...KINDS[m.kind].columns.map((c) => c.key)];
  const body = Readable.from(rows.map((row) => csvCells(m.kind, row))).pipe(stringify({ ...SAFE_CSV, header: true, columns: header }));
  const filename = `facts-${m.measure.replace('.', '-')}-${r.replaced ? 'replaced-' : ''}${r.split ? `${r.split}-` : ''}${r.teamSlug ? `${r.teamSlug}-` : ''}${m.from}-${m.to}.csv`;
  return { filename, body };
}
