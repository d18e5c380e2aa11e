/**
 * The typed input of the query tools: every member an enum of the models' public members, operators
 * and granularities as Cube's, so an assistant sees in `tools/list` exactly what it may send. What the
 * schema cannot say (a dimension belongs with its own cube's measures, a date range's syntax) the
 * cube layer checks and explains, as it does for the REST API.
 */
import { z } from 'zod';
import { DATE_RANGE_FORMS } from '../cube/dates.js';
import { GRANULARITIES, OPERATORS } from '../cube/query.js';
import type { Catalogue } from './catalogue.js';

/** Rows a tool returns at most: an assistant's context is small, and it can aggregate further. */
export const MCP_ROW_CAP = 1000;

const nonEmpty = (names: string[]): [string, ...string[]] => (names.length > 0 ? (names as [string, ...string[]]) : ['none']);

/** An enum of member names whose error names the unknown member and where to look (not the whole list). */
export const memberEnum = (names: string[], kind: string, lister: string) =>
  z.enum(nonEmpty(names), { error: (issue) => `Unknown ${kind} ${String(issue.input).slice(0, 200)} (${lister} lists them)` });

export const DATE_RANGE_HELP = `Inclusive, in UTC: ${DATE_RANGE_FORMS}. Months are calendar months in UTC.`;

type BranchIssue = { path: PropertyKey[]; message: string };

/**
 * A filter that fits neither form is explained by the form it was meant as (an `or` group or a
 * member filter), not as zod's bare "Invalid input", so the assistant learns what to change.
 */
function filterError(issue: { code?: string; input?: unknown; errors?: BranchIssue[][] }): string | undefined {
  if (issue.code !== 'invalid_union' || !issue.errors) return undefined;
  const meant = typeof issue.input === 'object' && issue.input !== null && 'or' in issue.input ? 1 : 0;
  const problems = (issue.errors[meant] ?? []).map((e) => (e.path.length > 0 ? `${e.path.map(String).join('.')}: ${e.message}` : e.message));
  return problems.length > 0 ? problems.join('; ') : undefined;
}

const schemas = new WeakMap<Catalogue, ReturnType<typeof buildQuerySchema>>();

/**
 * The query tools' input schema for the models' catalogue. Built once per catalogue (once per
 * process): /mcp makes a server per request, and this schema, with an enum of every member, was
 * most of that server's making. It holds no tenant: the tenant is bound in each request's handlers.
 */
export function querySchema(catalogue: Catalogue): ReturnType<typeof buildQuerySchema> {
  let schema = schemas.get(catalogue);
  if (!schema) schemas.set(catalogue, (schema = buildQuerySchema(catalogue)));
  return schema;
}

function buildQuerySchema(catalogue: Catalogue) {
  const measures = memberEnum(catalogue.measures.map((m) => m.name), 'measure', 'list_measures');
  const dimensions = memberEnum(catalogue.dimensions.map((d) => d.name), 'dimension', 'list_dimensions');
  const times = memberEnum(catalogue.dimensions.filter((d) => d.type === 'time').map((d) => d.name), 'time dimension', 'list_dimensions');
  const members = memberEnum([...catalogue.measures.map((m) => m.name), ...catalogue.dimensions.map((d) => d.name)], 'member', 'list_measures or list_dimensions');
  const dateRange = z
    .union([z.array(z.string().max(40)).length(2), z.string().max(60)], { error: () => `Not a date range: use ${DATE_RANGE_FORMS}` })
    .describe(DATE_RANGE_HELP);
  const memberFilter = z.strictObject({
    member: members.describe('The measure or dimension to filter on'),
    operator: z.enum(OPERATORS, { error: (issue) => `Unknown operator ${String(issue.input).slice(0, 100)}: use one of ${OPERATORS.join(', ')}` }).describe(
      'equals/notEquals (any of the values), contains/notContains/startsWith/notStartsWith/endsWith/notEndsWith (text), gt/gte/lt/lte (numbers), set/notSet (no values), inDateRange/notInDateRange (two dates), onTheDate (one date: that day), beforeDate/beforeOrOnDate/afterDate/afterOrOnDate (one date). Dimensions with format id take equals, notEquals, set or notSet only.',
    ),
    values: z.array(z.string().max(1000)).max(1000).optional().describe('Values as strings (numbers and booleans too); omit for set and notSet'),
  });
  return z.strictObject({
    measures: z.array(measures).max(50).optional().describe('Measures to compute (list_measures describes each). Measures of several cubes need a time dimension of each cube with the same granularity.'),
    dimensions: z.array(dimensions).max(50).optional().describe('Dimensions to group by: those of the measures\' cube, or of teams, projects, people (list_dimensions tells which go with a measure)'),
    timeDimensions: z
      .array(
        z.strictObject({
          dimension: times.describe('A time dimension; the measure\'s own (list_measures: timeDimension) decides which month a fact counts in'),
          granularity: z.enum(GRANULARITIES).optional().describe('Group by this calendar unit (UTC); omit to only filter by the date range'),
          dateRange: dateRange.optional(),
        }),
      )
      .max(5)
      .optional()
      .describe('Time grouping and date range'),
    filters: z
      .array(z.union([memberFilter, z.strictObject({ or: z.array(memberFilter).min(1).max(50).describe('Any of these filters') })], { error: filterError }))
      .max(50)
      .optional()
      .describe('All of these filters (an "or" item holds alternatives)'),
    order: z
      .array(z.strictObject({ member: members.describe('A measure or dimension of the query (a measure it does not select is computed to sort on; a dimension it does not select is left out of the order)'), direction: z.enum(['asc', 'desc']).describe('asc or desc') }))
      .max(50)
      .optional()
      .describe('Sort order, first key first; default: by time ascending, else by the first measure descending'),
    limit: z.number().int().min(1).max(MCP_ROW_CAP).optional().describe(`At most this many rows (at most ${MCP_ROW_CAP}, the default)`),
    offset: z.number().int().min(0).max(1_000_000).optional().describe('Skip this many rows first (paging)'),
  });
}

export type QueryInput = z.infer<ReturnType<typeof querySchema>>;

/** The typed input as a Cube query object (order as Cube's list of [member, direction]). */
export function toCubeQuery(input: QueryInput): Record<string, unknown> {
  const { order, ...rest } = input;
  return Object.fromEntries(
    Object.entries({ ...rest, ...(order ? { order: order.map((o) => [o.member, o.direction]) } : {}) }).filter(([, v]) => v !== undefined),
  );
}
