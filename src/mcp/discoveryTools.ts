/**
 * Discovery in steps, so an assistant never guesses a name: list_measures (searchable, with units),
 * list_dimensions (those that can group a given measure), list_dimension_values (the values a
 * dimension takes, bounded), then cube_query. cube_metadata gives everything at once.
 */
import { z } from 'zod';
import { UNITS } from './catalogue.js';
import { memberEnum } from './querySchema.js';
import { guarded, perCatalogue, type ToolContext, type ToolRegistry } from './toolKit.js';

const nonEmpty = (names: string[]): [string, ...string[]] => (names.length > 0 ? (names as [string, ...string[]]) : ['none']);
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export const MAX_VALUES = 500;

const Measure = z.object({
  name: z.string(),
  cube: z.string(),
  title: z.string(),
  description: z.string(),
  unit: z.enum(UNITS).describe('count, people, seconds, ratio (0–1), score (0–100), lines (added + deleted) or effort_units'),
  n: z.string().optional().describe('The count measure giving how many facts a median or ratio rests on'),
  timeDimension: z.string().optional().describe('The time dimension whose month a fact counts in'),
});
const Dimension = z.object({
  name: z.string(),
  cube: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'time']),
  format: z.literal('id').optional().describe('Holds UUIDs: filter with equals, notEquals, set or notSet only'),
  values: z.array(z.string()).optional().describe('Every value the model allows'),
});
const Member = z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional(), type: z.string(), format: z.string().optional() });

/** The tools' declarations, once per catalogue (perCatalogue). */
const declared = perCatalogue((catalogue) => {
  const textDimensions = catalogue.dimensions.filter((d) => d.type === 'string' && d.format !== 'id').map((d) => d.name);
  return {
    list_measures: {
      title: 'Find measures',
      description:
        'Step 1 of a question: finds the measures (numbers you can compute) whose name, title or description contains the search words, e.g. "deploy", "lead time", "AI". Each comes with its unit, its n (the count beside a median or ratio) and the time dimension that decides its month. Without search it lists all of them.',
      inputSchema: z.strictObject({
        search: z.string().max(100).optional().describe('Words to look for (case-insensitive; every word must match)'),
        cube: z.enum(nonEmpty([...new Set(catalogue.measures.map((m) => m.cube))])).optional().describe('Only the measures of this cube'),
      }),
      outputSchema: z.object({ measures: z.array(Measure) }),
      annotations: readOnly,
    },
    list_dimensions: {
      title: 'Dimensions of a measure',
      description:
        'Step 2: the dimensions that can group or filter a measure (its own cube\'s, then those of teams, projects or people it joins), each with a description; time dimensions group by day, week, month, quarter or year; enumerated dimensions list their values.',
      inputSchema: z.strictObject({
        measure: memberEnum(catalogue.measures.map((m) => m.name), 'measure', 'list_measures').describe('A measure from list_measures'),
      }),
      outputSchema: z.object({ measure: Measure, dimensions: z.array(Dimension) }),
      annotations: readOnly,
    },
    list_dimension_values: {
      title: 'Values of a dimension',
      description: `Step 3: the values a text dimension takes in your data (team slugs, environments, statuses, tools, repositories…), sorted, at most ${MAX_VALUES}; use them in filters of cube_query. "allowed" lists every value the model permits when it has such a list.`,
      inputSchema: z.strictObject({
        dimension: memberEnum(textDimensions, 'text dimension', 'list_dimensions').describe('A text dimension, e.g. teams.slug, deployments.environment, deployments.status, issues.state, issues.type'),
        search: z.string().min(1).max(100).optional().describe('Only values containing this text (case-insensitive)'),
        limit: z.number().int().min(1).max(MAX_VALUES).optional().describe(`At most this many values (default 100, at most ${MAX_VALUES})`),
      }),
      outputSchema: z.object({
        dimension: z.string(),
        values: z.array(z.string()),
        truncated: z.boolean().describe('More values exist: narrow with search'),
        allowed: z.array(z.string()).optional(),
      }),
      annotations: readOnly,
    },
    cube_metadata: {
      title: 'List cubes, measures and dimensions',
      description:
        'Everything at once (long): every cube of the delivery analytics semantic layer with its measures and dimensions, each with a description. Prefer list_measures and list_dimensions for one question. Use the exact member names ("cube.member") in cube_query and cube_sql.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        cubes: z.array(z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional(), measures: z.array(Member), dimensions: z.array(Member) })),
      }),
      annotations: readOnly,
    },
  };
});

export function registerDiscoveryTools(server: ToolRegistry, { tenantId, service, catalogue, log }: ToolContext): void {
  const tools = declared(catalogue);

  server.registerTool(
    'list_measures',
    tools.list_measures,
    ({ search, cube }) =>
      guarded(async () => {
        const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        const measures = catalogue.measures.filter(
          (m) => (!cube || m.cube === cube) && words.every((w) => `${m.name} ${m.title} ${m.description}`.toLowerCase().includes(w)),
        );
        return { measures };
      }, log),
  );

  server.registerTool(
    'list_dimensions',
    tools.list_dimensions,
    ({ measure }) => guarded(async () => ({ measure: catalogue.measure(measure), dimensions: catalogue.dimensionsFor(measure) }), log),
  );

  server.registerTool(
    'list_dimension_values',
    tools.list_dimension_values,
    ({ dimension, search, limit }) =>
      guarded(async () => {
        const found = await service.dimensionValues(tenantId, dimension, { ...(search ? { match: search } : {}), limit: limit ?? 100 });
        const allowed = catalogue.dimension(dimension)?.values;
        return { dimension, ...found, ...(allowed ? { allowed } : {}) };
      }, log),
  );

  server.registerTool(
    'cube_metadata',
    tools.cube_metadata,
    () => guarded(async () => ({ cubes: await service.metadata() }), log),
  );
}
