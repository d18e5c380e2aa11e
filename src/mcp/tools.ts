/**
 * The MCP tools. Each one parses its input and calls one function of an `AnalyticsService`, always
 * with the principal's tenant; the tools hold no logic of their own (STYLE.md: one path for every
 * entry point).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';

/** Rows a tool returns at most: an assistant's context is small, and it can aggregate further. */
export const MCP_ROW_CAP = 1000;

export interface CubeMember {
  name: string;
  title?: string;
  description?: string;
  type: string;
  /** `id`: the dimension holds UUIDs; filter it with equals, notEquals, set or notSet only. */
  format?: string;
}

export interface CubeInfo {
  name: string;
  title?: string;
  description?: string;
  measures: CubeMember[];
  dimensions: CubeMember[];
}

export interface QueryRows {
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/** What the tools need from the semantic layer; every call is scoped to `tenantId`. */
export interface AnalyticsService {
  metadata(tenantId: string): Promise<CubeInfo[]>;
  query(tenantId: string, query: unknown, rowCap: number): Promise<QueryRows>;
  sql(tenantId: string, query: unknown): Promise<{ statements: { sql: string; params: unknown[] }[] }>;
  teamBaseline(tenantId: string, window: { from?: string; to?: string }): Promise<Record<string, unknown>[]>;
}

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');
const QueryInput = {
  query: z
    .object({})
    .passthrough()
    .describe(
      'A Cube query object: {"measures": ["cube.measure"], "dimensions": ["cube.dimension"], "timeDimensions": [{"dimension": "cube.time", "granularity": "month", "dateRange": ["2025-01-01", "2025-06-30"]}], "filters": [{"member": "cube.dimension", "operator": "equals", "values": ["x"]}], "order": {"cube.measure": "desc"}, "limit": 100}. Member names come from the cube_metadata tool.',
    ),
};

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/**
 * A failed call is a tool error the assistant can read and correct, never a protocol error. An
 * unexpected failure is logged and answered like the REST API's 500: the SDK would otherwise hand
 * the raw message (database errors, SQL) to the client and log nothing.
 */
async function guarded(body: () => Promise<unknown>, log?: Logger): Promise<CallToolResult> {
  try {
    return json(await body());
  } catch (error) {
    if (error instanceof AppError && error.code !== 'internal') {
      const details = error.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
      return { isError: true, content: [{ type: 'text', text: details ? `${error.message}: ${details}` : error.message }] };
    }
    log?.error({ err: error }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: 'Internal server error' }] };
  }
}

export function registerTools(server: McpServer, principal: TenantPrincipal, service: AnalyticsService, log?: Logger): void {
  const tenantId = principal.tenantId;

  server.registerTool(
    'cube_metadata',
    {
      title: 'List cubes, measures and dimensions',
      description:
        'Call this first. Lists every cube of the delivery analytics semantic layer with its measures (numbers you can aggregate, e.g. counts of closed issues or production deployments) and dimensions (things you can group or filter by, including time dimensions), each with a description. Use the exact member names it returns ("cube.member") in cube_query and cube_sql.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => guarded(async () => ({ cubes: await service.metadata(tenantId) }), log),
  );

  server.registerTool(
    'cube_query',
    {
      title: 'Run an analytics query',
      description: `Answers a question with numbers: runs a Cube query (measures grouped by dimensions, optionally by a time dimension with a granularity and a date range) over the delivery data of your tenant and returns the rows. At most ${MCP_ROW_CAP} rows are returned ("truncated": true says more exist; aggregate more coarsely or add a limit). Unknown member names are rejected with the list of problems: check cube_metadata.`,
      inputSchema: QueryInput,
      annotations: { readOnlyHint: true },
    },
    ({ query }) => guarded(() => service.query(tenantId, query, MCP_ROW_CAP), log),
  );

  server.registerTool(
    'team_baseline',
    {
      title: 'Team baseline per month',
      description:
        'Returns the team baseline: one row per enabled team per month in the window (inclusive, at most 36 months), every month present even when quiet, with headcount, delivery (issues closed, PRs merged, cycle and lead times), deployment (production deploys, change failure rate, recovery time), AI-adoption and survey columns. An empty (null) ratio means no denominator, not zero. Use it for a team-by-month overview; use cube_query for anything more specific.',
      inputSchema: {
        from: Month.optional().describe('First month, YYYY-MM (default: twelve months before to)'),
        to: Month.optional().describe('Last month, YYYY-MM (default: the current month)'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ from, to }) => guarded(async () => ({ rows: await service.teamBaseline(tenantId, { from, to }) }), log),
  );

  server.registerTool(
    'cube_sql',
    {
      title: 'Show the SQL of a query (dry run)',
      description:
        'Explains how a Cube query would be computed without running it: returns the generated SQL statements and their bound parameters. Use it when the user asks how a number is calculated, or to check a query before running it with cube_query.',
      inputSchema: QueryInput,
      annotations: { readOnlyHint: true },
    },
    ({ query }) => guarded(() => service.sql(tenantId, query), log),
  );
}
