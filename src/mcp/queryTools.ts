/** The query tools: cube_query (run), cube_sql (dry run) and team_baseline (the export's grid). */
import { z } from 'zod';
import { MCP_ROW_CAP, querySchema, toCubeQuery } from './querySchema.js';
import { guarded, perCatalogue, type ToolContext, type ToolRegistry } from './toolKit.js';
import { Month } from '../shared/schemas.js';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What a row of a project no team owns shows as its team (a bare null reads as missing data). */
export const NO_TEAM = 'no team';
/** Never null for a real team: null there means the fact's project has no owning team. */
const TEAM_NAMES = ['teams.slug', 'teams.name'];

const presentRows = (rows: Record<string, z.infer<typeof Cell>>[]) =>
  rows.map((row) => {
    const named = TEAM_NAMES.filter((key) => key in row && row[key] === null);
    return named.length === 0 ? row : { ...row, ...Object.fromEntries(named.map((key) => [key, NO_TEAM])) };
  });

/** The tools' declarations, once per catalogue (perCatalogue). */
const declared = perCatalogue((catalogue) => {
  const Query = querySchema(catalogue);
  return {
    cube_query: {
      title: 'Run an analytics query',
      description: `Step 4: answers a question with numbers. Computes measures grouped by dimensions and optionally by a time dimension with a granularity over a date range, on your tenant's delivery data. Rows are keyed "cube.member" (a time bucket "cube.time.month" = "YYYY-MM-01T00:00:00.000"). Medians (…_p50_seconds) come with an n measure: ask for both. An empty (null) ratio or median means no data, not zero. Facts of a project no team owns show teams.slug and teams.name "${NO_TEAM}" (filter them with teams.slug notSet). At most ${MCP_ROW_CAP} rows ("truncated": true says more exist).`,
      inputSchema: Query,
      outputSchema: z.object({ rows: z.array(z.record(z.string(), Cell)), truncated: z.boolean() }),
      annotations: readOnly,
    },
    cube_sql: {
      title: 'Show the SQL of a query (dry run)',
      description:
        'Explains how a query would be computed without running it: the generated SQL statements (one per measure cube) and their bound parameters. Use it when the user asks how a number is calculated. Same input as cube_query.',
      inputSchema: Query,
      outputSchema: z.object({
        statements: z.array(z.object({ cube: z.string().nullable().describe('The measure cube the statement reads (null without measures)'), sql: z.string(), params: z.array(z.unknown()) })),
      }),
      annotations: readOnly,
    },
    team_baseline: {
      title: 'Team baseline per month',
      description:
        'One row per enabled team per month in the window (inclusive, at most 36 months), every month present even when quiet, with headcount, delivery (issues closed, PRs merged, cycle and lead times), deployment (production deploys, change failure rate, time to restore), AI-adoption and survey columns: the team-baseline export. An empty (null) ratio means no denominator, not zero. Use it for a team-by-month overview; team_benchmark compares one team with the others.',
      inputSchema: z.strictObject({
        from: Month.optional().describe('First month, YYYY-MM (default: twelve months before to)'),
        to: Month.optional().describe('Last month, YYYY-MM (default: the current month, UTC)'),
      }),
      outputSchema: z.object({ rows: z.array(z.record(z.string(), z.unknown())) }),
      annotations: readOnly,
    },
  };
});

export function registerQueryTools(server: ToolRegistry, { tenantId, service, catalogue, log }: ToolContext): void {
  const tools = declared(catalogue);

  server.registerTool(
    'cube_query',
    tools.cube_query,
    (input) =>
      guarded(async () => {
        const { rows, truncated } = await service.query(tenantId, toCubeQuery(input), MCP_ROW_CAP);
        return { rows: presentRows(rows), truncated };
      }, log),
  );

  server.registerTool(
    'cube_sql',
    tools.cube_sql,
    (input) => guarded(async () => ({ ...(await service.sql(tenantId, toCubeQuery(input))) }), log),
  );

  server.registerTool(
    'team_baseline',
    tools.team_baseline,
    ({ from, to }) => guarded(async () => ({ rows: await service.teamBaseline(tenantId, { from, to }) }), log),
  );
}
