/**
 * The documented Cube query format, validated before anything reaches Cube's planner (which trusts
 * its input: see docs/cube.md). Member names are checked against the compiled meta with own-property
 * lookups only, so `__proto__` and `constructor` are unknown members like any other.
 */
import { z } from 'zod';
import { AppError, type ErrorDetail, zodDetails } from '../errors.js';
import { checkJsonValue, INPUT_LIMITS } from '../shared/limits.js';
import type { CompiledCube } from './compiler.js';
import { canonicalZone, resolveRange } from './dates.js';
import { checkFilter, OPERATORS, type FilterInput } from './filters.js';

export { OPERATORS };
export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
/** Cube's shapes of `data` in a `/load` answer: rows of objects, or members with value arrays (docs/cube.md). */
export const RESPONSE_FORMATS = ['default', 'compact', 'columnar'] as const;
export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

const MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,99}\.[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const ORDER_MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,99}\.[A-Za-z_][A-Za-z0-9_]{0,99}(\.[a-z]{1,10})?$/;

const Member = z.string().max(201).regex(MEMBER, 'Not a member name (cube.member)');
const DateText = z.string().min(1).max(100);
/** A `dateRange`: a relative range (`last 3 months`), one date (that day) or two. */
const DateRange = z.union([DateText, z.array(DateText).min(1).max(2)]);
const Value = z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]).transform((v) => (v === null ? null : String(v)));

const MemberFilter = z.strictObject({
  member: Member.optional(),
  dimension: Member.optional(),
  operator: z.enum(OPERATORS),
  values: z.array(Value).max(1000).optional(),
});
const Filter: z.ZodType<FilterInput> = z.lazy(() =>
  z.union([MemberFilter, z.strictObject({ or: z.array(Filter).min(1).max(50) }), z.strictObject({ and: z.array(Filter).min(1).max(50) })]),
);

const OrderMember = z.string().max(212).regex(ORDER_MEMBER, 'Not a member name (cube.member or cube.time.granularity)');
const Direction = z.enum(['asc', 'desc', 'none']);
const Order = z.union([z.record(OrderMember, Direction), z.array(z.tuple([OrderMember, Direction])).max(50)]);

/** The REST query object. Keys outside Cube's documented format (planner options) are rejected. */
export const CubeQuery = z.strictObject({
  measures: z.array(Member).max(50).default([]),
  dimensions: z.array(Member).max(50).default([]),
  segments: z.array(Member).max(20).default([]),
  timeDimensions: z
    .array(
      z.strictObject({
        dimension: Member,
        granularity: z.enum(GRANULARITIES).nullable().optional(),
        dateRange: DateRange.optional(),
        compareDateRange: z.array(DateRange).min(1).max(10).optional(),
      }),
    )
    .max(5)
    .default([]),
  filters: z.array(Filter).max(50).default([]),
  order: Order.optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: z.number().int().min(0).max(1_000_000).optional(),
  timezone: z.string().max(64).optional(),
  total: z.boolean().optional(),
  ungrouped: z.boolean().optional(),
  renewQuery: z.boolean().optional(),
  responseFormat: z.enum(RESPONSE_FORMATS).optional(),
});
export type CubeQuery = z.infer<typeof CubeQuery>;

export interface ValidTimeDimension {
  dimension: string;
  granularity?: (typeof GRANULARITIES)[number];
  /** Two local timestamps of the query's time zone (`YYYY-MM-DDTHH:mm:ss.SSS`). */
  dateRange?: [string, string];
}

/** A query whose members exist and fit where they are used; dates resolved, `order` normalised to a list. */
export interface ValidQuery {
  measures: string[];
  dimensions: string[];
  segments: string[];
  timeDimensions: ValidTimeDimension[];
  filters: FilterInput[];
  order: { id: string; desc: boolean }[];
  limit: number;
  offset?: number;
  /** A canonical IANA name; `UTC` unless the query names another. */
  timezone: string;
  total: boolean;
  ungrouped: boolean;
  /** Measures the query orders by without selecting them: computed, sorted on, then dropped. */
  hiddenMeasures: string[];
  /** The shape the REST answer's `data` takes; rows everywhere else. */
  responseFormat?: (typeof RESPONSE_FORMATS)[number];
}

export const toStart = (value: string) => (value.length === 10 ? `${value}T00:00:00.000` : value);
export const toEnd = (value: string) => (value.length === 10 ? `${value}T23:59:59.999` : value);

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Keys that could reach an object's prototype anywhere in the input, and unknown filter operators. */
function preScan(value: unknown, path: string, details: ErrorDetail[]): void {
  if (Array.isArray(value)) return value.forEach((v, i) => preScan(v, `${path}.${i}`, details));
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) details.push({ path: `${path}.${key}`, message: `Forbidden key ${key}` });
    const v = (value as Record<string, unknown>)[key];
    if (key === 'operator' && path.startsWith('query.filters') && !(OPERATORS as readonly unknown[]).includes(v)) {
      details.push({ path: `${path}.operator`, message: `Unknown operator ${String(v).slice(0, 100)}` });
    }
    preScan(v, `${path}.${key}`, details);
  }
}

/** A 400 whose message carries every problem (Cube clients show only `error`). */
export function invalidQuery(details: ErrorDetail[], withPaths = false): AppError {
  const message = details.map((d) => (withPaths ? `${d.path}: ${d.message}` : d.message)).join('; ');
  return new AppError('validation_failed', message, details);
}

/** The query as parsed by the schema (compareDateRange still in it), or a 400 naming every problem. */
export function parseQuery(input: unknown): CubeQuery {
  if (input === undefined || input === null || (typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0)) {
    throw new AppError('validation_failed', 'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid', [
      { path: 'query', message: 'A query needs at least one measure or dimension (or a time dimension with a granularity)' },
    ]);
  }
  // Depth first: the scans below and the filter schema recurse.
  const early: ErrorDetail[] = checkJsonValue(input, INPUT_LIMITS.jsonDepth, 'query');
  if (early.length > 0) throw invalidQuery(early, true);
  preScan(input, 'query', early);
  if (early.length > 0) throw invalidQuery(early);
  const parsed = CubeQuery.safeParse(input);
  if (!parsed.success) throw invalidQuery(zodDetails(parsed.error, 'query', input), true);
  return parsed.data;
}

/** Parses and checks a query against the compiled models; every problem is a 400 naming it. */
export function validateQuery(cube: CompiledCube, input: unknown, now = new Date()): ValidQuery {
  return checkQuery(cube, parseQuery(input), now);
}

/** Checks a parsed query (without compareDateRange) against the models and resolves its dates. */
export function checkQuery(cube: CompiledCube, query: CubeQuery, now = new Date()): ValidQuery {
  const withGrain = query.timeDimensions.filter((t) => t.granularity);
  if (query.measures.length === 0 && query.dimensions.length === 0 && withGrain.length === 0) {
    throw new AppError('validation_failed', 'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid', [
      { path: 'query', message: 'A query needs at least one measure or dimension (or a time dimension with a granularity)' },
    ]);
  }
  const details: ErrorDetail[] = [];
  const zone = query.timezone === undefined ? 'UTC' : canonicalZone(query.timezone);
  if (zone === null) details.push({ path: 'query.timezone', message: `Unknown time zone ${query.timezone}: use an IANA name such as Europe/Amsterdam` });
  const kindOf = (name: string) => (Object.hasOwn(cube.members, name) ? cube.members[name] : undefined);
  const expect = (name: string, path: string, kinds: string[], timeOnly = false) => {
    const member = kindOf(name);
    if (!member) details.push({ path, message: `Unknown member ${name}` });
    else if (!kinds.includes(member.kind)) details.push({ path, message: `${name} is a ${member.kind}, not a ${kinds.join(' or ')}` });
    else if (timeOnly && member.type !== 'time') details.push({ path, message: `${name} is not a time dimension` });
  };
  query.measures.forEach((m, i) => expect(m, `query.measures.${i}`, ['measure']));
  query.dimensions.forEach((d, i) => expect(d, `query.dimensions.${i}`, ['dimension']));
  query.segments.forEach((s, i) => expect(s, `query.segments.${i}`, ['segment']));
  const timeDimensions: ValidTimeDimension[] = query.timeDimensions.map((t, i) => {
    expect(t.dimension, `query.timeDimensions.${i}.dimension`, ['dimension'], true);
    if (t.compareDateRange) details.push({ path: `query.timeDimensions.${i}.compareDateRange`, message: 'compareDateRange is a query type of its own: send it to /load with queryType=multi' });
    let dateRange: [string, string] | undefined;
    if (t.dateRange !== undefined && zone) {
      try {
        dateRange = resolveRange(t.dateRange, zone, now);
        if (dateRange[0] > dateRange[1]) details.push({ path: `query.timeDimensions.${i}.dateRange`, message: 'The date range is reversed (from after to)' });
      } catch (error) {
        details.push({ path: `query.timeDimensions.${i}.dateRange`, message: (error as Error).message });
      }
    }
    return { dimension: t.dimension, ...(t.granularity ? { granularity: t.granularity } : {}), ...(dateRange ? { dateRange } : {}) };
  });
  const filters = query.filters.map((f, i) => checkFilter(cube, f, `query.filters.${i}`, zone ?? 'UTC', details));
  if (withGrain.length > 0) {
    query.measures.forEach((m, i) => {
      if (kindOf(m)?.window) details.push({ path: `query.measures.${i}`, message: `${m} is a rate over the query's whole date range, not per ${withGrain[0]!.granularity}: ask for it without a granularity (once per period if you need a series)` });
    });
  }

  const orderInput = Array.isArray(query.order) ? query.order : Object.entries(query.order ?? {});
  const chosen = new Set([...query.measures, ...query.dimensions, ...query.timeDimensions.map((t) => t.dimension)]);
  const hiddenMeasures: string[] = [];
  // Ordering by a member the query does not select is accepted, as in Cube 1.7: a measure is
  // computed, sorted on and dropped from the rows (Cube's Tesseract planner adds it to ORDER BY);
  // a dimension or time bucket is left out of the order, as both Cube planners do, since grouping
  // by it would change the rows.
  const order = orderInput.flatMap(([name, dir], i) => {
    const path = `query.order.${i}`;
    const parts = name.split('.');
    const base = parts.length === 3 ? `${parts[0]}.${parts[1]}` : name;
    const member = kindOf(base);
    if (!member || member.kind === 'segment' || (parts.length === 3 && member.type !== 'time')) {
      details.push({ path, message: member ? `Order by ${name}: not a measure, dimension or time dimension` : `Unknown member ${base}` });
      return [];
    }
    if (dir === 'none') return [];
    if (parts.length === 3) {
      // `cube.time.month`: the time dimension selected with that granularity.
      return query.timeDimensions.some((t) => t.dimension === base && t.granularity === parts[2]) ? [{ id: base, desc: dir === 'desc' }] : [];
    }
    if (!chosen.has(name)) {
      if (member.kind !== 'measure') return [];
      hiddenMeasures.push(name);
    }
    return [{ id: name, desc: dir === 'desc' }];
  });
  if (details.length > 0) throw invalidQuery(details);
  return {
    measures: query.measures,
    dimensions: query.dimensions,
    segments: query.segments,
    timeDimensions,
    filters,
    order,
    limit: query.limit,
    ...(query.offset !== undefined ? { offset: query.offset } : {}),
    timezone: zone as string,
    total: query.total === true,
    ungrouped: query.ungrouped === true,
    hiddenMeasures: [...new Set(hiddenMeasures)],
    ...(query.responseFormat ? { responseFormat: query.responseFormat } : {}),
  };
}
