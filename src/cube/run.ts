/**
 * Plans validated queries with Cube's JavaScript planner and runs them on our pool. The planner's
 * options are built here, field by field, from a validated query and the principal's tenant: no
 * client value is ever spread into them (the planner treats its options as trusted).
 */
import pg from 'pg';
import { PostgresQuery } from '@cubejs-backend/schema-compiler';
import { AppError } from '../errors.js';
import type { CompiledCube } from './compiler.js';
import type { ValidQuery } from './query.js';
import { currentMonths, factsAfterRangeEnd, forMonths, matchRollup, monthRuns, rowMonth } from './rollups.js';

type Cell = string | number | boolean | null;
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

interface Plan extends PlannedSql {
  columns: Column[];
  /** The validated (sub-)query the SQL was planned from. */
  query: ValidQuery;
  /** The query's offset (in the SQL) and limit (applied by `execute`; null: none, for a sub-query merged later). */
  limit: number | null;
  offset?: number;
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

/** The planner turns unknown joins and similar model problems into UserError: a 400 for the caller. */
function planError(error: unknown): AppError {
  if ((error as { type?: string })?.type === 'UserError' || /join path|Filter for/i.test(String((error as Error)?.message))) {
    return new AppError('validation_failed', `Query cannot be planned: ${(error as Error).message}`, [{ path: 'query', message: (error as Error).message }]);
  }
  return new AppError('internal', 'Query planning failed');
}

/**
 * The query's order, or Cube's default when it has none (the first time dimension with a
 * granularity ascending; else, with measures and dimensions, the first measure descending; else the
 * first dimension), then every other selected dimension and time dimension ascending. Rows are
 * groups of those members, so the order is total: ties never leave the answer (or which rows a
 * limit keeps) to the plan, with or without rollups.
 */
export function totalOrder(q: ValidQuery): ValidQuery['order'] {
  const times = q.timeDimensions.filter((t) => t.granularity).map((t) => t.dimension);
  const [time] = times;
  const [measure] = q.measures;
  const [dimension] = q.dimensions;
  const base =
    q.order.length > 0 ? q.order
    : time ? [{ id: time, desc: false }]
    : measure && dimension ? [{ id: measure, desc: true }]
    : dimension ? [{ id: dimension, desc: false }]
    : [];
  const named = new Set(base.map((o) => o.id));
  return [...base, ...[...new Set([...q.dimensions, ...times])].filter((id) => !named.has(id)).map((id) => ({ id, desc: false }))];
}

/**
 * `limit`: the rows `execute` keeps (null: all, for a sub-query whose rows are merged, then
 * limited). `order` undefined is the query's total order (totalOrder); `[]` plans no ORDER BY.
 */
export function plan(cube: CompiledCube, tenantId: string, q: ValidQuery, fact: string | null, limit: number | null, offset?: number, order?: ValidQuery['order']): Plan {
  const chosen = order ?? totalOrder(q);
  const options = {
    measures: [...q.measures],
    dimensions: [...q.dimensions],
    segments: [...q.segments],
    timeDimensions: q.timeDimensions.map((t) => ({ dimension: t.dimension, granularity: t.granularity, dateRange: t.dateRange ? [...t.dateRange] : undefined })),
    filters: structuredClone(q.filters),
    order: chosen.map((o) => ({ id: o.id, desc: o.desc })),
    // No LIMIT in the SQL (Cube renders `rowLimit`, not `limit`): a LIMIT far above the rows turns
    // the deployments query onto a nested loop 30 times slower. `execute` applies the limit.
    offset,
    timezone: 'UTC',
    useNativeSqlPlanner: false,
    contextSymbols: { securityContext: { tenant_id: tenantId } },
  };
  let query: PostgresQuery;
  let built: [string, unknown[]];
  try {
    query = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler } as never, options as never);
    built = query.buildSqlAndParams() as [string, unknown[]];
  } catch (error) {
    throw planError(error);
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
  return { cube: fact, sql: built[0], params: built[1], columns, query: q, limit, offset };
}

/**
 * One plan per fact cube (the planner's own multi-fact SQL is correct but orders of magnitude
 * slower). Each sub-query takes its cube's measures and time dimensions plus the shared dimensions;
 * the results are merged on the shared dimensions and the time bucket.
 */
export function planQueries(cube: CompiledCube, tenantId: string, q: ValidQuery): Plan[] {
  const facts = [...new Set(q.measures.map(cubeOf))];
  if (facts.length <= 1) return [plan(cube, tenantId, q, facts[0] ?? null, q.limit, q.offset)];
  const problems: string[] = [];
  const factSet = new Set(facts);
  for (const d of q.dimensions) if (factSet.has(cubeOf(d))) problems.push(`dimension ${d} belongs to one of several measure cubes; group by shared dimensions (teams, projects, people)`);
  for (const s of q.segments) if (factSet.has(cubeOf(s))) problems.push(`segment ${s} belongs to one of several measure cubes`);
  const grains = new Set(q.timeDimensions.filter((t) => t.granularity).map((t) => t.granularity));
  if (grains.size > 1) problems.push('a query over several measure cubes uses one granularity');
  const withGrain = q.timeDimensions.filter((t) => t.granularity);
  const filterMembers = (f: ValidQuery['filters'][number]): string[] => (f.or ?? f.and ?? []).flatMap(filterMembers).concat(f.member ?? f.dimension ?? []);
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
    return plan(cube, tenantId, sub, fact, null, undefined, []);
  });
}

export async function execute(db: Queryable, p: Plan): Promise<Row[]> {
  const result = await db.query({ text: p.sql, values: p.params, types } as pg.QueryConfig);
  const raws: Record<string, unknown>[] = p.limit === null ? result.rows : result.rows.slice(0, p.limit);
  return raws.map((raw) => {
    const row: Row = {};
    for (const column of p.columns) {
      const value = convert(raw[column.alias], column);
      for (const key of column.keys) row[key] = value;
    }
    return row;
  });
}

/**
 * Runs a validated query for the tenant; rows keyed by member names, numbers as numbers. A
 * (sub-)query that a rollup can answer takes its current months from the rollup and plans only
 * the other months against the facts (`rollups: false` reads everything from the facts).
 */
export async function runQuery(pool: pg.Pool, cube: CompiledCube, tenantId: string, q: ValidQuery, options: { rollups?: boolean } = {}): Promise<Row[]> {
  const plans = planQueries(cube, tenantId, q);
  const run = (p: Plan) => (options.rollups === false ? execute(pool, p) : executeWithRollups(pool, cube, tenantId, p));
  const results = await Promise.all(plans.map(run));
  if (plans.length === 1) return results[0] as Row[];
  return mergeRows(q, results);
}

/**
 * One read-only REPEATABLE READ transaction: which stored months are current, their rows and the
 * months read from the facts all come from one snapshot, so a write committing meanwhile is either
 * wholly in the answer or wholly out of it (as in the single statement of `rollups: false`).
 */
async function executeWithRollups(pool: pg.Pool, cube: CompiledCube, tenantId: string, p: Plan): Promise<Row[]> {
  const match = matchRollup(p.query);
  if (!match) return execute(pool, p);
  const client = await pool.connect();
  let rows: Row[];
  try {
    await client.query('begin isolation level repeatable read read only');
    rows = await combineWithRollup(client, cube, tenantId, p, match);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').then(() => client.release(), (e: Error) => client.release(e));
    throw error;
  }
  client.release();
  return rows;
}

async function combineWithRollup(db: Queryable, cube: CompiledCube, tenantId: string, p: Plan, match: NonNullable<ReturnType<typeof matchRollup>>): Promise<Row[]> {
  const stored = await currentMonths(db, tenantId, match.rollup.cube, match.months);
  // A stored month holds the whole month; as the last month of a Cube date range (which ends at
  // 23:59:59.999) it is used only when no fact lies after that instant.
  const last = match.months.at(-1) as string;
  if (stored.has(last) && (await factsAfterRangeEnd(db, tenantId, last))) stored.delete(last);
  if (stored.size === 0) return execute(db, p);
  const missing = match.months.filter((m) => !stored.has(m));
  const rows: Row[] = [];
  // Only the columns the query asks for, in the order `execute` gives them.
  const keys = p.columns.flatMap((c) => c.keys);
  for (const month of stored.values()) for (const row of month) rows.push(Object.fromEntries(keys.map((k) => [k, row[k] ?? null])));
  for (const run of monthRuns(missing)) {
    const whole = run.at(-1) !== last;
    const fromFacts = await execute(db, plan(cube, tenantId, forMonths(p.query, run, whole), p.cube, null, undefined, []));
    rows.push(...fromFacts.filter((row) => run.includes(rowMonth(match.rollup, row))));
  }
  const offset = p.offset ?? 0;
  return sortRows(p.query, rows).slice(offset, p.limit === null ? undefined : offset + p.limit);
}

function mergeRows(q: ValidQuery, results: Row[][]): Row[] {
  const grain = q.timeDimensions.find((t) => t.granularity)?.granularity;
  const timeKeys = q.timeDimensions.filter((t) => t.granularity).flatMap((t) => [`${t.dimension}.${t.granularity}`, t.dimension]);
  const merged = new Map<string, Row>();
  results.forEach((rows) => {
    for (const row of rows) {
      const bucket = timeKeys.map((k) => row[k]).find((v) => v !== undefined) ?? null;
      const key = JSON.stringify([...q.dimensions.map((d) => row[d] ?? null), grain ? bucket : null]);
      let target = merged.get(key);
      if (!target) {
        target = {};
        for (const d of q.dimensions) target[d] = row[d] ?? null;
        for (const k of timeKeys) target[k] = bucket;
        for (const m of q.measures) target[m] = null;
        merged.set(key, target);
      }
      for (const m of q.measures) if (m in row) target[m] = row[m] as Cell;
    }
  });
  return sortRows(q, [...merged.values()]).slice(q.offset ?? 0, (q.offset ?? 0) + q.limit);
}

/**
 * The query's total order (totalOrder), as the facts' SQL applies it. NULL sorts as in PostgreSQL:
 * above every value (last ascending, first descending).
 */
function sortRows(q: ValidQuery, rows: Row[]): Row[] {
  const timeKeys = q.timeDimensions.filter((t) => t.granularity).flatMap((t) => [`${t.dimension}.${t.granularity}`, t.dimension]);
  const order = totalOrder(q);
  return rows.sort((a, b) => {
    for (const { id, desc } of order) {
      const key = Object.hasOwn(a, id) ? id : (timeKeys.find((k) => k.startsWith(`${id}.`)) ?? id);
      const x = a[key] ?? null;
      const y = b[key] ?? null;
      if (x === y) continue;
      const ascending = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -ascending : ascending;
    }
    return 0;
  });
}
