/**
 * The semantic layer's service functions: the Cube REST routes, `/api/metrics`, the team-baseline
 * export and the MCP tools all come through here. The tenant is always the principal's.
 */
import type pg from 'pg';
import { AppError } from '../errors.js';
import { loadCube, type CompiledCube, type MetaCube } from './compiler.js';
import { canUseForm, planQueries, type Row } from './plan.js';
import { validateQuery, type ValidQuery } from './query.js';
import { labelRows, normalizedQuery, parseLoadRequest, parseQueryInput, pivotQuery, type LoadRequest, type QueryType } from './request.js';
import { loadRows, type UsedRollup } from './run.js';

export { normalizedQuery, parseQueryInput };

/** Only the tenant matters here: the planner's security context is built from it and nothing else. */
export interface CubeScope {
  tenantId: string;
}

type Annotation = Record<'measures' | 'dimensions' | 'segments' | 'timeDimensions', Record<string, Record<string, unknown>>>;

/** Which stored rollups answered (Cube's `usedPreAggregations`, keyed by the table read). */
export type UsedPreAggregations = Record<string, { preAggregationId: string; type: 'rollup'; months: string[] }>;

export interface LoadResult {
  query: Record<string, unknown>;
  data: Row[];
  annotation: Annotation;
  lastRefreshTime: string;
  /** Rows without limit or offset when the query asked for `total`, else null. */
  total: number | null;
  requestId?: string;
  /** Present only when a rollup answered some months, as in Cube. */
  usedPreAggregations?: UsedPreAggregations;
  /** Cube's description of the query for rollup matching (leaf measures, additivity, dimensions). */
  transformedQuery: Record<string, unknown> | null;
  dataSource: 'default';
  dbType: 'postgres';
  external: false;
  slowQuery: false;
}

export interface MultiLoadResult {
  queryType: QueryType;
  results: LoadResult[];
  pivotQuery: Record<string, unknown>;
  slowQuery: false;
}

export interface LoadOptions {
  requestId?: string;
  /** `queryType=multi`: the client takes compare and blending answers (Cube's multi-result body). */
  multi?: boolean;
}

/** Cube's `/v1/meta`: every cube with its measures and dimensions, titles and descriptions. */
export async function cubeMeta(): Promise<{ cubes: MetaCube[] }> {
  const cube = await loadCube();
  return { cubes: cube.meta };
}

/** Every member's meta by name, once per compiled models (the meta does not change). */
const membersByName = new WeakMap<CompiledCube, Map<string, Record<string, unknown>>>();

function membersOf(cube: CompiledCube): Map<string, Record<string, unknown>> {
  let byName = membersByName.get(cube);
  if (!byName) {
    byName = new Map();
    for (const c of cube.meta) for (const m of [...c.measures, ...c.dimensions, ...c.segments]) byName.set(m.name, m);
    membersByName.set(cube, byName);
  }
  return byName;
}

function annotate(cube: CompiledCube, q: ValidQuery): Annotation {
  const byName = membersOf(cube);
  const pick = (name: string) => {
    const m = byName.get(name) ?? {};
    return { title: m.title, shortTitle: m.shortTitle, type: m.type, ...(m.description ? { description: m.description } : {}), ...(m.format ? { format: m.format } : {}), ...(m.meta ? { meta: m.meta } : {}) };
  };
  const annotation: Annotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  for (const m of q.measures) annotation.measures[m] = pick(m);
  for (const d of q.dimensions) annotation.dimensions[d] = pick(d);
  for (const s of q.segments) annotation.segments[s] = pick(s);
  for (const t of q.timeDimensions) {
    if (!t.granularity) continue;
    annotation.timeDimensions[t.dimension] = pick(t.dimension);
    annotation.timeDimensions[`${t.dimension}.${t.granularity}`] = { ...pick(t.dimension), granularity: { name: t.granularity, title: t.granularity, interval: `1 ${t.granularity}` } };
  }
  return annotation;
}

const usedPreAggregations = (used: UsedRollup[]): UsedPreAggregations | undefined =>
  used.length === 0 ? undefined : Object.fromEntries(used.map((u) => [`cube_rollups.${u.cube}`, { preAggregationId: `${u.cube}.by_team_month`, type: 'rollup' as const, months: u.months }]));

async function loadOne(pool: pg.Pool, cube: CompiledCube, scope: CubeScope, queryType: QueryType, q: ValidQuery, requestId?: string, serial = false): Promise<LoadResult> {
  const { rows, total, rollups } = await loadRows(pool, cube, scope.tenantId, q, { serial });
  const used = usedPreAggregations(rollups);
  return {
    query: normalizedQuery(q),
    data: labelRows(queryType, q, rows),
    annotation: annotate(cube, q),
    lastRefreshTime: new Date().toISOString(),
    total: q.total ? total : null,
    ...(requestId ? { requestId } : {}),
    ...(used ? { usedPreAggregations: used } : {}),
    transformedQuery: canUseForm(cube, scope.tenantId, q),
    dataSource: 'default',
    dbType: 'postgres',
    external: false,
    slowQuery: false,
  };
}

/**
 * Validates and runs one regular Cube query for the scope's tenant (Cube's `/v1/load` result).
 * `serial`: its statements run without parallel workers, for a caller that runs several large
 * queries at once (src/aiImpact/service.ts).
 */
export async function cubeLoad(pool: pg.Pool, scope: CubeScope, input: unknown, options: { requestId?: string; serial?: boolean } = {}): Promise<LoadResult> {
  const cube = await loadCube();
  const q = validateQuery(cube, parseQueryInput(input));
  return loadOne(pool, cube, scope, 'regularQuery', q, options.requestId, options.serial);
}

function checkClient(request: LoadRequest, multi: boolean): void {
  if (request.queryType !== 'regularQuery' && !multi) {
    const message = `'${request.queryType}' query type is not supported by the client. Please update the client (send queryType=multi).`;
    throw new AppError('validation_failed', message, [{ path: 'queryType', message }]);
  }
}

/**
 * A whole `/load` request: one query, a compareDateRange query or a data blending array. With
 * `multi`, Cube's multi-result body (`{queryType, results, pivotQuery}`); else the single result.
 */
export async function cubeLoadRequest(pool: pg.Pool, scope: CubeScope, input: unknown, options: LoadOptions = {}): Promise<LoadResult | MultiLoadResult> {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  checkClient(request, options.multi === true);
  for (const q of request.queries) planQueries(cube, scope.tenantId, q);
  const results = await Promise.all(request.queries.map((q) => loadOne(pool, cube, scope, request.queryType, q, options.requestId)));
  if (!options.multi) return results[0] as LoadResult;
  return { queryType: request.queryType, results, pivotQuery: pivotQuery(request), slowQuery: false };
}

type SqlAnswer = { sql: Record<string, unknown>; statements: { cube: string | null; sql: string; params: unknown[] }[] };

function sqlOf(cube: CompiledCube, scope: CubeScope, q: ValidQuery): SqlAnswer {
  const plans = planQueries(cube, scope.tenantId, q);
  const first = plans[0] as (typeof plans)[number];
  return {
    sql: { sql: [first.sql, first.params], order: q.order, dataSource: 'default', external: false, preAggregations: [], rollupMatchResults: [] },
    statements: plans.map((p) => ({ cube: p.cube, sql: p.sql, params: p.params })),
  };
}

/** The SQL and bound parameters the query runs as (one statement per measure cube). */
export async function cubeSql(scope: CubeScope, input: unknown): Promise<SqlAnswer> {
  const cube = await loadCube();
  return sqlOf(cube, scope, validateQuery(cube, parseQueryInput(input)));
}

/** `/v1/sql` for any request: one answer for a regular query, a list for compare and blending queries (as Cube). */
export async function cubeSqlRequest(scope: CubeScope, input: unknown): Promise<SqlAnswer | SqlAnswer[]> {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  const answers = request.queries.map((q) => sqlOf(cube, scope, q));
  return request.queryType === 'regularQuery' ? (answers[0] as SqlAnswer) : answers;
}

/** Cube's `/v1/dry-run`: the normalised queries, validated and planned but not run. */
export async function cubeDryRun(scope: CubeScope, input: unknown): Promise<Record<string, unknown>> {
  const cube = await loadCube();
  const request = parseLoadRequest(cube, input);
  for (const q of request.queries) planQueries(cube, scope.tenantId, q);
  return {
    queryType: request.queryType,
    normalizedQueries: request.queries.map(normalizedQuery),
    pivotQuery: pivotQuery(request),
    queryOrder: request.queries.map((q) => Object.fromEntries(q.order.map((o) => [o.id, o.desc ? 'desc' : 'asc']))),
    transformedQueries: request.queries.map((q) => canUseForm(cube, scope.tenantId, q)),
  };
}

export type { Row, ValidQuery };
