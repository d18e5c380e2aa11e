/**
 * A `/load` request as Cube's gateway reads it: one query (`regularQuery`), one query whose time
 * dimension has a `compareDateRange` (`compareDateRangeQuery`: one query per range), or an array of
 * queries (`blendingQuery`, data blending). Rows of the latter two carry the keys Cube's clients
 * pivot on (`compareDateRange`, `time.<granularity>`).
 */
import { AppError } from '../errors.js';
import type { CompiledCube } from './compiler.js';
import type { Row } from './plan.js';
import { checkQuery, parseQuery, toEnd, toStart, type ValidQuery } from './query.js';

export type QueryType = 'regularQuery' | 'compareDateRangeQuery' | 'blendingQuery';

export interface LoadRequest {
  queryType: QueryType;
  queries: ValidQuery[];
}

const MAX_QUERIES = 10;

const refuse = (message: string, path = 'query'): AppError => new AppError('validation_failed', message, [{ path, message }]);

/** Parses a query from a REST request: an object or array, or the JSON text of one (GET `?query=`). */
export function parseQueryInput(input: unknown): unknown {
  if (input === undefined || input === null || input === '' || input === 'undefined') throw refuse('Query param is required');
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    throw refuse('Unable to decode query param as JSON');
  }
}

/** Every query of the request, validated, with its type. */
export function parseLoadRequest(cube: CompiledCube, input: unknown, now = new Date()): LoadRequest {
  const raw = parseQueryInput(input);
  if (Array.isArray(raw)) {
    if (raw.length === 0 || raw.length > MAX_QUERIES) throw refuse(`A data blending query is 1 to ${MAX_QUERIES} queries`);
    const queries = raw.map((q) => checkQuery(cube, parseQuery(q), now));
    const grains = [...new Set(queries.map((q) => q.timeDimensions[0]?.granularity).filter(Boolean))];
    if (grains.length > 1) throw refuse('Data blending query granularities must match');
    if (grains.length === 0) throw refuse('Data blending query without granularity is not supported: give each query a time dimension with a granularity first');
    return { queryType: 'blendingQuery', queries };
  }
  const parsed = parseQuery(raw);
  const compared = parsed.timeDimensions.filter((t) => t.compareDateRange);
  if (compared.length === 0) return { queryType: 'regularQuery', queries: [checkQuery(cube, parsed, now)] };
  if (compared.length > 1) throw refuse('compareDateRange is allowed on one time dimension only');
  const [target] = compared as [(typeof compared)[number]];
  if (target.dateRange !== undefined) throw refuse('A time dimension has either dateRange or compareDateRange');
  const queries = (target.compareDateRange ?? []).map((range) =>
    checkQuery(cube, { ...parsed, timeDimensions: parsed.timeDimensions.map((t) => (t === target ? { dimension: t.dimension, granularity: t.granularity, dateRange: range } : t)) }, now),
  );
  return { queryType: 'compareDateRangeQuery', queries };
}

/** Cube's normalised form of a query, echoed in `/load` and `/dry-run` (what the client pivots on). */
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
    ...(q.total ? { total: true } : {}),
    ...(q.ungrouped ? { ungrouped: true } : {}),
    timezone: q.timezone,
    rowLimit: q.limit,
    queryType: 'regularQuery',
    // Cube echoes it, and the client reads the echo to know how to unpack `data`.
    ...(q.responseFormat ? { responseFormat: q.responseFormat } : {}),
  };
}

export type PackedData = Row[] | { members: string[]; dataset: Row[keyof Row][][] } | { members: string[]; columns: Row[keyof Row][][] };

/**
 * `data` in the format the query asks for, as Cube's gateway packs it: `compact` is the members
 * (the keys of a row, time buckets under both their names) and one array of values per row;
 * `columnar` one array per member. No rows: no members.
 */
export function packRows(format: ValidQuery['responseFormat'], rows: Row[]): PackedData {
  if (format !== 'compact' && format !== 'columnar') return rows;
  const members = rows.length > 0 ? Object.keys(rows[0] as Row) : [];
  if (format === 'compact') return { members, dataset: rows.map((row) => members.map((m) => row[m] ?? null)) };
  return { members, columns: members.map((m) => rows.map((row) => row[m] ?? null)) };
}

/** The query the client's ResultSet pivots a multi-result answer on (Cube's `pivotQuery`). */
export function pivotQuery(request: LoadRequest): Record<string, unknown> {
  const [first] = request.queries as [ValidQuery];
  if (request.queryType === 'blendingQuery') {
    const union = (key: 'measures' | 'dimensions') => [...new Set(request.queries.flatMap((q) => q[key]))];
    return { measures: union('measures'), dimensions: union('dimensions'), timeDimensions: [{ dimension: 'time', granularity: first.timeDimensions[0]?.granularity }], queryType: 'blendingQuery' };
  }
  const normalized = normalizedQuery(first);
  if (request.queryType === 'compareDateRangeQuery') return { ...normalized, dimensions: ['compareDateRange', ...first.dimensions], queryType: 'compareDateRangeQuery' };
  return normalized;
}

/** The key Cube adds to every row of a compare or blending query. */
export function labelRows(queryType: QueryType, q: ValidQuery, rows: Row[]): Row[] {
  if (queryType === 'compareDateRangeQuery') {
    const range = q.timeDimensions.find((t) => t.dateRange)?.dateRange as [string, string];
    const label = `${toStart(range[0])} - ${toEnd(range[1])}`;
    return rows.map((row) => ({ ...row, compareDateRange: label }));
  }
  if (queryType === 'blendingQuery') {
    const td = q.timeDimensions[0] as { dimension: string; granularity: string };
    return rows.map((row) => ({ ...row, [`time.${td.granularity}`]: row[`${td.dimension}.${td.granularity}`] ?? null }));
  }
  return rows;
}
