/**
 * The semantic layer's service functions: the Cube REST routes, `/api/metrics`, the team-baseline
 * export and the MCP tools all come through here. The tenant is always the principal's.
 */
import type pg from 'pg';
import { AppError } from '../errors.js';
import { loadCube, type CompiledCube, type MetaCube } from './compiler.js';
import { toEnd, toStart, validateQuery, type ValidQuery } from './query.js';
import { planQueries, runQuery, type Row } from './run.js';

/** Only the tenant matters here: the planner's security context is built from it and nothing else. */
export interface CubeScope {
  tenantId: string;
}

type Annotation = Record<'measures' | 'dimensions' | 'segments' | 'timeDimensions', Record<string, Record<string, unknown>>>;

export interface LoadResult {
  query: Record<string, unknown>;
  data: Row[];
  annotation: Annotation;
  lastRefreshTime: string;
  dataSource: 'default';
  dbType: 'postgres';
  external: false;
  slowQuery: false;
}

/** Cube's `/v1/meta`: every cube with its measures and dimensions, titles and descriptions. */
export async function cubeMeta(): Promise<{ cubes: MetaCube[] }> {
  const cube = await loadCube();
  return { cubes: cube.meta };
}

/** Cube's normalised form of the query, echoed in `/load` and `/dry-run` (what the client pivots on). */
export function normalizedQuery(q: ValidQuery): Record<string, unknown> {
  return {
    measures: q.measures,
    dimensions: q.dimensions,
    segments: q.segments,
    timeDimensions: q.timeDimensions.map((t) => ({
      dimension: t.dimension,
      ...(t.granularity ? { granularity: t.granularity } : {}),
      ...(t.dateRange ? { dateRange: [toStart(t.dateRange[0]), toEnd(t.dateRange[1])] } : {}),
    })),
    filters: q.filters,
    order: q.order.map((o) => [o.id, o.desc ? 'desc' : 'asc']),
    limit: q.limit,
    ...(q.offset !== undefined ? { offset: q.offset } : {}),
    timezone: 'UTC',
    rowLimit: q.limit,
    queryType: 'regularQuery',
  };
}

function annotate(cube: CompiledCube, q: ValidQuery): Annotation {
  const byName = new Map<string, Record<string, unknown>>();
  for (const c of cube.meta) for (const m of [...c.measures, ...c.dimensions, ...c.segments]) byName.set(m.name, m);
  const pick = (name: string) => {
    const m = byName.get(name) ?? {};
    return { title: m.title, shortTitle: m.shortTitle, type: m.type, ...(m.description ? { description: m.description } : {}) };
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

/** Parses a query from a REST request: an object, or the JSON text of one (GET `?query=`). */
export function parseQueryInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    throw new AppError('validation_failed', 'query is not valid JSON', [{ path: 'query', message: 'Not valid JSON' }]);
  }
}

/** Validates and runs a Cube query for the scope's tenant (Cube's `/v1/load` result). */
export async function cubeLoad(pool: pg.Pool, scope: CubeScope, input: unknown): Promise<LoadResult> {
  const cube = await loadCube();
  const q = validateQuery(cube, parseQueryInput(input));
  const data = await runQuery(pool, cube, scope.tenantId, q);
  return {
    query: normalizedQuery(q),
    data,
    annotation: annotate(cube, q),
    lastRefreshTime: new Date().toISOString(),
    dataSource: 'default',
    dbType: 'postgres',
    external: false,
    slowQuery: false,
  };
}

/** The SQL and bound parameters the query runs as (one statement per measure cube). */
export async function cubeSql(scope: CubeScope, input: unknown): Promise<{ sql: Record<string, unknown>; statements: { cube: string | null; sql: string; params: unknown[] }[] }> {
  const cube = await loadCube();
  const q = validateQuery(cube, parseQueryInput(input));
  const plans = planQueries(cube, scope.tenantId, q);
  const first = plans[0] as (typeof plans)[number];
  return {
    sql: { sql: [first.sql, first.params], order: q.order, dataSource: 'default', external: false, preAggregations: [], rollupMatchResults: [] },
    statements: plans.map((p) => ({ cube: p.cube, sql: p.sql, params: p.params })),
  };
}

/** Cube's `/v1/dry-run`: the normalised query, validated and planned but not run. */
export async function cubeDryRun(scope: CubeScope, input: unknown): Promise<Record<string, unknown>> {
  const cube = await loadCube();
  const q = validateQuery(cube, parseQueryInput(input));
  planQueries(cube, scope.tenantId, q);
  const normalized = normalizedQuery(q);
  return { queryType: 'regularQuery', normalizedQueries: [normalized], pivotQuery: normalized, queryOrder: q.order.map((o) => ({ [o.id]: o.desc ? 'desc' : 'asc' })), transformedQueries: [null] };
}

export type { Row, ValidQuery };
