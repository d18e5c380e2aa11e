/**
 * Plans validated queries with Cube's JavaScript planner and reads a plan's rows. The planner's
 * options are built here, field by field, from a validated query and the principal's tenant: no
 * client value is ever spread into them (the planner treats its options as trusted).
 */
import pg from 'pg';
import { PostgresQuery } from '@cubejs-backend/schema-compiler';
import { AppError } from '../errors.js';
import type { CompiledCube } from './compiler.js';
import { filterMembers } from './filters.js';
import { totalOrder } from './merge.js';
import type { ValidQuery } from './query.js';

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export interface PlannedSql {
  cube: string | null;
  sql: string;
  params: unknown[];
}

interface Column {
  alias: string;
  keys: string[];
  kind: 'measure' | 'dimension' | 'time';
  type: string;
}

export interface Plan extends PlannedSql {
  columns: Column[];
  /** The validated (sub-)query the SQL was planned from. */
  query: ValidQuery;
}

/** A pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

const NUMERIC = new Set(['number', 'count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'running_total']);
const cubeOf = (member: string) => member.slice(0, member.indexOf('.'));

// Timestamps stay text: pg would read `timestamp without time zone` in the process's local zone.
const RAW_TIME = new Set([1082, 1114, 1184]);
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (RAW_TIME.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text')) };

/** Cube's rendering of a time bucket: `2024-05-01T00:00:00.000`. */
function timeCell(value: string | null): string | null {
  if (value === null) return null;
  const [date, time = '00:00:00'] = value.replace('T', ' ').split(' ') as [string, string?];
  const [hms = '00:00:00', fraction = ''] = time.replace(/[+-]\d{2}(:?\d{2})?$/, '').split('.');
  return `${date}T${hms}.${(fraction + '000').slice(0, 3)}`;
}

function convert(value: unknown, column: Column): Cell {
  if (value === null || value === undefined) return null;
  if (column.kind === 'time' || column.type === 'time') return timeCell(String(value));
  if (NUMERIC.has(column.type)) return Number(value);
  if (typeof value === 'boolean' || typeof value === 'number') return value;
  return String(value);
}

/**
 * A measure timed by another cube's time dimension has no join path to it: name the measure's own
 * time dimension (the model's `meta.time_dimension`), the one that decides its month.
 */
function ownTimeDimensions(cube: CompiledCube, q: ValidQuery): string[] {
  const own = new Map<string, string>();
  for (const c of cube.meta) {
    for (const m of c.measures) {
      const time = (m.meta as { time_dimension?: unknown } | undefined)?.time_dimension;
      if (typeof time === 'string') own.set(m.name, time);
    }
  }
  return q.measures.flatMap((m) => {
    const mine = own.get(m);
    return q.timeDimensions
      .filter((t) => mine && t.dimension !== mine && cubeOf(t.dimension) !== cubeOf(m))
      .map((t) => `${m} cannot be grouped or filtered by ${t.dimension}, a time dimension of ${cubeOf(t.dimension)}: use its own time dimension ${mine}`);
  });
}

/** The planner turns unknown joins and similar model problems into UserError: a 400 for the caller. */
function planError(error: unknown, cube: CompiledCube, q: ValidQuery): AppError {
  const message = String((error as Error)?.message);
  const hints = /join path/i.test(message) ? ownTimeDimensions(cube, q) : [];
  if (hints.length > 0) return new AppError('validation_failed', `Query cannot be planned: ${hints.join('; ')}`, hints.map((hint) => ({ path: 'query.timeDimensions', message: hint })));
  if ((error as { type?: string })?.type === 'UserError' || /join path|Filter for/i.test(message)) {
    return new AppError('validation_failed', `Query cannot be planned: ${message}`, [{ path: 'query', message }]);
  }
  return new AppError('internal', 'Query planning failed');
}

/**
 * The SQL of one (sub-)query. It has neither LIMIT nor OFFSET: the caller pages the rows, which
 * also gives the total. `order` undefined is the query's total order (totalOrder); `[]` plans no ORDER BY.
 */
/**
 * Planned SQL by compiled models, tenant and validated query. Cube's planner (a PostgresQuery built
 * and rendered) is most of a small query's time in this process (issue 34: 27 ms for a query whose
 * SQL takes 4), and a dashboard asks the same queries again and again. A validated query is
 * absolute (relative date ranges and date filters are resolved to instants by validateQuery), so
 * its plan depends on nothing else; the tenant is part of the key, since its id is in the SQL's
 * parameters. Least recently used entries go first; errors are not kept.
 */
const PLAN_CACHE_SIZE = 1000;
const caches = new WeakMap<CompiledCube, Map<string, unknown>>();

function remembered<T>(cube: CompiledCube, key: string, make: () => T): T {
  let cache = caches.get(cube);
  if (!cache) caches.set(cube, (cache = new Map()));
  if (cache.has(key)) {
    const hit = cache.get(key) as T;
    // Map keeps insertion order: moved to the end, it is the most recently used.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > PLAN_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return made;
}

export function plan(cube: CompiledCube, tenantId: string, q: ValidQuery, fact: string | null, order?: ValidQuery['order']): Plan {
  const key = JSON.stringify(['plan', tenantId, fact, order ?? null, q]);
  // The plan's own query is the caller's (equal to the one it was made from).
  return { ...remembered(cube, key, () => planned(cube, tenantId, q, fact, order)), query: q };
}

function planned(cube: CompiledCube, tenantId: string, q: ValidQuery, fact: string | null, order?: ValidQuery['order']): Plan {
  const chosen = order ?? totalOrder(q);
  const options = {
    measures: [...q.measures],
    dimensions: [...q.dimensions],
    segments: [...q.segments],
    timeDimensions: q.timeDimensions.map((t) => ({ dimension: t.dimension, granularity: t.granularity, dateRange: t.dateRange ? [...t.dateRange] : undefined })),
    filters: structuredClone(q.filters),
    order: chosen.map((o) => ({ id: o.id, desc: o.desc })),
    // No LIMIT in the SQL (Cube renders `rowLimit`, not `limit`): a LIMIT far above the rows turns
    // the deployments query onto a nested loop 30 times slower. The caller pages the rows.
    timezone: q.timezone,
    ungrouped: q.ungrouped,
    useNativeSqlPlanner: false,
    contextSymbols: { securityContext: { tenant_id: tenantId } },
  };
  let query: PostgresQuery;
  let built: [string, unknown[]];
  try {
    query = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler } as never, options as never);
    built = query.buildSqlAndParams() as [string, unknown[]];
  } catch (error) {
    throw planError(error, cube, q);
  }
  const internal = query as unknown as {
    measures: { measure: string; unescapedAliasName(): string }[];
    dimensions: { dimension: string; unescapedAliasName(): string }[];
    timeDimensions: { dimension: string; granularity?: string; unescapedAliasName(): string }[];
  };
  const columns: Column[] = [
    ...internal.dimensions.map((d) => ({ alias: d.unescapedAliasName(), keys: [d.dimension], kind: 'dimension' as const, type: cube.members[d.dimension]?.type ?? 'string' })),
    ...internal.timeDimensions
      .filter((t) => t.granularity)
      .map((t) => ({ alias: t.unescapedAliasName(), keys: [`${t.dimension}.${t.granularity}`, t.dimension], kind: 'time' as const, type: 'time' })),
    ...internal.measures.map((m) => ({ alias: m.unescapedAliasName(), keys: [m.measure], kind: 'measure' as const, type: cube.members[m.measure]?.type ?? 'number' })),
  ];
  return { cube: fact, sql: built[0], params: built[1], columns, query: q };
}

/**
 * One plan per fact cube (the planner's own multi-fact SQL is correct but orders of magnitude
 * slower). Each sub-query takes its cube's measures and time dimensions plus the shared dimensions;
 * the results are merged on the shared dimensions and the time bucket.
 */
export function planQueries(cube: CompiledCube, tenantId: string, q: ValidQuery): Plan[] {
  const facts = [...new Set(q.measures.map(cubeOf))];
  if (facts.length <= 1) return [plan(cube, tenantId, q, facts[0] ?? null)];
  if (q.ungrouped) throw new AppError('validation_failed', 'An ungrouped query reads the measures of one cube', [{ path: 'query.measures', message: 'An ungrouped query reads the measures of one cube' }]);
  const problems: string[] = [];
  const factSet = new Set(facts);
  for (const d of q.dimensions) if (factSet.has(cubeOf(d))) problems.push(`dimension ${d} belongs to one of several measure cubes; group by shared dimensions (teams, projects, people)`);
  for (const s of q.segments) if (factSet.has(cubeOf(s))) problems.push(`segment ${s} belongs to one of several measure cubes`);
  const grains = new Set(q.timeDimensions.filter((t) => t.granularity).map((t) => t.granularity));
  if (grains.size > 1) problems.push('a query over several measure cubes uses one granularity');
  const withGrain = q.timeDimensions.filter((t) => t.granularity);
  for (const f of q.filters) {
    const owners = new Set(filterMembers(f).map(cubeOf).filter((c) => factSet.has(c)));
    if (owners.size > 1) problems.push('a filter group spans several measure cubes');
    if (filterMembers(f).some((m) => cube.members[m]?.kind === 'measure')) problems.push('measure filters are not supported across several measure cubes');
  }
  if (withGrain.length > 0) {
    if (withGrain.some((t) => !factSet.has(cubeOf(t.dimension)))) problems.push('across several measure cubes, group by a time dimension of each measure cube');
    for (const fact of facts) {
      if (withGrain.filter((t) => cubeOf(t.dimension) === fact).length !== 1) problems.push(`add one time dimension of ${fact} with granularity ${[...grains][0]}`);
    }
  }
  if (problems.length > 0) throw new AppError('validation_failed', problems.join('; '), problems.map((message) => ({ path: 'query', message })));
  const mine = (member: string, fact: string) => !factSet.has(cubeOf(member)) || cubeOf(member) === fact;
  return facts.map((fact) => {
    const sub: ValidQuery = {
      ...q,
      measures: q.measures.filter((m) => cubeOf(m) === fact),
      timeDimensions: q.timeDimensions.filter((t) => mine(t.dimension, fact)),
      filters: q.filters.filter((f) => filterMembers(f).every((m) => mine(m, fact))),
    };
    return plan(cube, tenantId, sub, fact, []);
  });
}


/** Every row of a plan, keyed by member names, numbers as numbers. */
export async function execute(db: Queryable, p: Plan): Promise<Row[]> {
  const result = await db.query({ text: p.sql, values: p.params, types } as pg.QueryConfig);
  return (result.rows as Record<string, unknown>[]).map((raw) => {
    const row: Row = {};
    for (const column of p.columns) {
      const value = convert(raw[column.alias], column);
      for (const key of column.keys) row[key] = value;
    }
    return row;
  });
}

/** The JSON-safe parts of Cube's `transformedQuery` (what its rollup matching reads). */
const TRANSFORMED_KEYS = [
  'sortedDimensions', 'sortedTimeDimensions', 'timeDimensions', 'measures', 'leafMeasures', 'leafMeasureAdditive', 'isAdditive',
  'hasNoTimeDimensionsWithoutGranularity', 'allFiltersWithinSelectedDimensions', 'hasCumulativeMeasures', 'hasMultipliedMeasures',
  'measureToLeafMeasures', 'ungrouped',
];

/**
 * Cube's `transformedQuery` for a query: how its planner sees the measures (additive or not, leaf
 * measures) and dimensions when it matches pre-aggregations. Null when the planner cannot say.
 */
export function canUseForm(cube: CompiledCube, tenantId: string, q: ValidQuery): Record<string, unknown> | null {
  // Frozen when made (deeply): shared by every answer that asks the same query, never copied.
  return remembered(cube, JSON.stringify(['form', tenantId, q]), () => transformedForm(cube, tenantId, q));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function transformedForm(cube: CompiledCube, tenantId: string, q: ValidQuery): Record<string, unknown> | null {
  try {
    const query = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler } as never, {
      measures: [...q.measures],
      dimensions: [...q.dimensions],
      segments: [...q.segments],
      timeDimensions: q.timeDimensions.map((t) => ({ dimension: t.dimension, granularity: t.granularity, dateRange: t.dateRange ? [...t.dateRange] : undefined })),
      filters: structuredClone(q.filters),
      timezone: q.timezone,
      ungrouped: q.ungrouped,
      useNativeSqlPlanner: false,
      contextSymbols: { securityContext: { tenant_id: tenantId } },
    } as never) as unknown as { preAggregations: { canUseTransformedQuery(): Record<string, unknown> } };
    const form = query.preAggregations.canUseTransformedQuery();
    return deepFreeze(JSON.parse(JSON.stringify(Object.fromEntries(TRANSFORMED_KEYS.filter((k) => k in form).map((k) => [k, form[k]])))) as Record<string, unknown>);
  } catch {
    return null;
  }
}
