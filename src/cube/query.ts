/**
 * The documented Cube query format, validated before anything reaches Cube's planner (which trusts
 * its input: see docs/cube.md). Member names are checked against the compiled meta with own-property
 * lookups only, so `__proto__` and `constructor` are unknown members like any other.
 */
import { z } from 'zod';
import { AppError, type ErrorDetail } from '../errors.js';
import { zodDetails } from '../http/route.js';
import { checkJsonValue, INPUT_LIMITS } from '../schemas/limits.js';
import type { CompiledCube } from './compiler.js';

export const OPERATORS = [
  'equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith',
  'gt', 'gte', 'lt', 'lte', 'set', 'notSet', 'inDateRange', 'notInDateRange', 'onTheDate',
  'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate', 'measureFilter',
] as const;
export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

const MEMBER = /^[A-Za-z_][A-Za-z0-9_]{0,99}\.[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]00:?00)?)?$/;

const Member = z.string().max(201).regex(MEMBER, 'Not a member name (cube.member)');
const IsoDate = z
  .string()
  .regex(ISO_DATE, 'Not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.sss, UTC)')
  .refine((value) => !Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)) && validCalendarDate(value), 'Not a valid date');
const Value = z.union([z.string().max(1000), z.number().finite(), z.boolean()]).transform(String);

function validCalendarDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const DateRange = z
  .tuple([IsoDate, IsoDate])
  .refine(([from, to]) => toStart(from) <= toEnd(to), 'The date range is reversed (from after to)');

export const toStart = (value: string) => (value.length === 10 ? `${value}T00:00:00.000` : value.replace(' ', 'T').replace(/Z|[+-]00:?00$/, ''));
export const toEnd = (value: string) => (value.length === 10 ? `${value}T23:59:59.999` : value.replace(' ', 'T').replace(/Z|[+-]00:?00$/, ''));

interface FilterInput {
  member?: string;
  dimension?: string;
  operator?: string;
  values?: string[];
  or?: FilterInput[];
  and?: FilterInput[];
}

const MemberFilter = z.strictObject({
  member: Member.optional(),
  dimension: Member.optional(),
  operator: z.enum(OPERATORS),
  values: z.array(Value).max(1000).optional(),
});
const Filter: z.ZodType<FilterInput> = z.lazy(() =>
  z.union([MemberFilter, z.strictObject({ or: z.array(Filter).min(1).max(50) }), z.strictObject({ and: z.array(Filter).min(1).max(50) })]),
);

const Direction = z.enum(['asc', 'desc', 'none']);
const Order = z.union([z.record(Member, Direction), z.array(z.tuple([Member, Direction])).max(50)]);

/** The REST query object. Keys outside Cube's documented format (planner options) are rejected. */
export const CubeQuery = z.strictObject({
  measures: z.array(Member).max(50).default([]),
  dimensions: z.array(Member).max(50).default([]),
  segments: z.array(Member).max(20).default([]),
  timeDimensions: z
    .array(
      z.strictObject({
        dimension: Member,
        granularity: z.enum(GRANULARITIES).optional(),
        dateRange: DateRange.optional(),
      }),
    )
    .max(5)
    .default([]),
  filters: z.array(Filter).max(50).default([]),
  order: Order.optional(),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: z.number().int().min(0).max(1_000_000).optional(),
  // Months are calendar months in UTC: another zone would give other numbers than the export.
  timezone: z.literal('UTC').optional(),
  total: z.literal(false).optional(),
  ungrouped: z.literal(false).optional(),
  renewQuery: z.boolean().optional(),
  responseFormat: z.literal('default').optional(),
});
export type CubeQuery = z.infer<typeof CubeQuery>;

/** A query whose members exist and fit where they are used; `order` normalised to a list. */
export interface ValidQuery extends Omit<CubeQuery, 'order' | 'filters'> {
  filters: FilterInput[];
  order: { id: string; desc: boolean }[];
}

const NUMERIC = new Set(['number', 'count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'running_total']);
const DATE_OPERATORS = new Set(['inDateRange', 'notInDateRange', 'onTheDate', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate']);
const TEXT_OPERATORS = new Set(['contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith']);
/** The only operators of an id (`format: id`, a uuid column) or a boolean: anything else means nothing there. */
const EQUALITY_OPERATORS = new Set(['equals', 'notEquals', 'set', 'notSet']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** Parses and checks a query against the compiled models; every problem is a 400 naming it. */
export function validateQuery(cube: CompiledCube, input: unknown): ValidQuery {
  // Depth first: the scans below and the filter schema recurse.
  const early: ErrorDetail[] = checkJsonValue(input, INPUT_LIMITS.jsonDepth, 'query');
  if (early.length > 0) throw new AppError('validation_failed', early.map((d) => d.message).join('; '), early);
  preScan(input, 'query', early);
  if (early.length > 0) throw new AppError('validation_failed', early.map((d) => d.message).join('; '), early);
  const parsed = CubeQuery.safeParse(input);
  if (!parsed.success) throw new AppError('validation_failed', 'Invalid Cube query', zodDetails(parsed.error, 'query'));
  const query = parsed.data;
  if (query.measures.length === 0 && query.dimensions.length === 0 && !query.timeDimensions.some((t) => t.granularity)) {
    throw new AppError('validation_failed', 'a query needs at least one measure or dimension', [
      { path: 'query', message: 'a query needs at least one measure or dimension (or a time dimension with a granularity)' },
    ]);
  }
  const details: ErrorDetail[] = [];
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
  query.timeDimensions.forEach((t, i) => expect(t.dimension, `query.timeDimensions.${i}.dimension`, ['dimension'], true));

  const checkFilter = (f: FilterInput, path: string) => {
    if (f.or) return f.or.forEach((g, i) => checkFilter(g, `${path}.or.${i}`));
    if (f.and) return f.and.forEach((g, i) => checkFilter(g, `${path}.and.${i}`));
    const name = f.member ?? f.dimension;
    if (!name || (f.member && f.dimension)) return details.push({ path, message: 'A filter names exactly one member' });
    expect(name, `${path}.member`, ['dimension', 'measure']);
    const member = kindOf(name);
    const operator = f.operator as string;
    const values = f.values ?? [];
    if (operator !== 'set' && operator !== 'notSet' && values.length === 0) details.push({ path: `${path}.values`, message: `${operator} needs values` });
    if (!member) return;
    // Filter values are typed by the member: only a free-text string member binds any string.
    const typed = member.format === 'id' ? 'an id' : member.type === 'boolean' ? 'a boolean' : null;
    if (TEXT_OPERATORS.has(operator) && (typed || member.type !== 'string')) {
      details.push({ path: `${path}.operator`, message: `${operator} applies to text members; ${name} is ${typed ?? `a ${member.type}`}` });
    } else if (typed && !DATE_OPERATORS.has(operator) && !EQUALITY_OPERATORS.has(operator)) {
      details.push({ path: `${path}.operator`, message: `${operator} does not apply to ${name}, ${typed} (equals, notEquals, set or notSet)` });
    }
    if (DATE_OPERATORS.has(operator) || member.type === 'time') {
      if (member.type !== 'time' && DATE_OPERATORS.has(operator)) details.push({ path: `${path}.operator`, message: `${operator} applies to time dimensions only` });
      if (!values.every((v) => IsoDate.safeParse(v).success)) details.push({ path: `${path}.values`, message: 'Values of a time filter are ISO 8601 dates' });
      if ((operator === 'inDateRange' || operator === 'notInDateRange') && (values.length !== 2 || toStart(values[0] as string) > toEnd(values[1] as string))) {
        details.push({ path: `${path}.values`, message: 'A date range is two ordered dates' });
      }
    } else if (member.format === 'id') {
      if (!values.every((v) => UUID.test(v))) details.push({ path: `${path}.values`, message: `Values of ${name} are UUIDs (8-4-4-4-12 hex digits)` });
    } else if (member.type === 'boolean') {
      if (!values.every((v) => v === 'true' || v === 'false')) details.push({ path: `${path}.values`, message: `Values of ${name} are true or false` });
    } else if (NUMERIC.has(member.type) && !values.every((v) => /^-?\d+(\.\d+)?$/.test(v))) {
      details.push({ path: `${path}.values`, message: `Values of ${name} are numbers` });
    }
  };
  query.filters.forEach((f, i) => checkFilter(f, `query.filters.${i}`));

  const order = Array.isArray(query.order) ? query.order : Object.entries(query.order ?? {});
  const chosen = new Set([...query.measures, ...query.dimensions, ...query.timeDimensions.map((t) => t.dimension)]);
  order.forEach(([name], i) => {
    if (!chosen.has(name)) details.push({ path: `query.order.${i}`, message: `Order by ${name}, which the query does not select` });
  });
  if (details.length > 0) throw new AppError('validation_failed', details.map((d) => d.message).join('; '), details);
  return {
    ...query,
    filters: query.filters,
    order: order.filter(([, dir]) => dir !== 'none').map(([id, dir]) => ({ id, desc: dir === 'desc' })),
  };
}
