/** list_facts: the facts behind a measure (drill-through, docs/drill-through.md). */
import { z } from 'zod';
import { DRILL_MEASURES } from '../facts/definitions.js';
import { FACTS_PER_PAGE } from '../facts/service.js';
import { guarded, type ToolContext, type ToolRegistry } from './toolKit.js';

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');
const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The tool's declaration: the same for every request (not rebuilt per /mcp request). */
const tools = {
  list_facts: {
    title: 'List the facts behind a measure',
    description: `Answers "which ones, and why": the deployments, pull requests, changes, issues, incidents, AI sessions, AI users, seat holders, AI commits or a team's current members (people by id, never a name) a measure was computed from, or a survey measure's counts per team and month (never a response, an answer or a person: the experience score has no list), for a window of months and optionally one team, ${FACTS_PER_PAGE} a page, newest first. The list is the measure's n (a median's or rate's count); a rate's numerator rows are marked (meta markedColumn, e.g. failed deployments with the rule that made them fail: "failed: status failure", "failed: rolled back by <externalId> on <date>", "failed: caused incident <key>", and "recovered by <externalId> after <h> h"). Same rows as GET /api/facts. Times are ISO 8601 UTC, durations seconds.`,
    inputSchema: z.strictObject({
      measure: z.enum(DRILL_MEASURES as [string, ...string[]]).describe('The cube measure whose facts to list (as cube_query names it)'),
      from: Month.optional().describe('First month, YYYY-MM (default: twelve months before to)'),
      to: Month.optional().describe('Last month, YYYY-MM (default: the current month, UTC)'),
      team: z.string().min(1).max(200).optional().describe('A team slug (teams.slug); all teams when absent'),
      page: z.number().int().min(1).max(100_000).optional().describe(`Page of ${FACTS_PER_PAGE} rows, from 1 (default 1)`),
      replaced: z.boolean().optional().describe('true: list the deployments stored but replaced by the project\'s current deployment source (one source per period), which the measure does not count (only production, finished and failed deployments have them)'),
    }),
    outputSchema: z.object({
      rows: z.array(z.record(z.string(), Cell)),
      total: z.number().int().describe("Rows of the whole list: the measure's n"),
      marked: z.number().int().describe("Rows marked (a rate's numerator); 0 when the list marks none"),
      markedColumn: z.string().nullable().describe('The row key that is true on a marked row'),
      replaced: z.number().int().nullable().describe('Deployments of the scope replaced by another source and not counted (listed with replaced: true, each row\'s replacedBy naming the source); null for a list that has none by rule'),
      sum: z.object({ column: z.string(), value: z.number() }).nullable().describe('For a list of counts (survey counts per team and month): the row key the measure adds up and its sum, the number itself; null otherwise'),
      page: z.number().int(),
      perPage: z.number().int(),
      truncated: z.boolean().describe('More rows on later pages'),
      kind: z.string(),
      columns: z.array(
        z.object({
          key: z.string(),
          title: z.string(),
          type: z.string(),
          detail: z.boolean().optional().describe('A detail column: the web app shows it in the row\'s expansion'),
          link: z.string().optional().describe('The row key holding the URL of the row\'s source'),
          short: z.boolean().optional().describe('An identifier the web app shortens (a sha to 7 characters)'),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

export function registerFactTools(server: ToolRegistry, { tenantId, service, log }: ToolContext): void {
  server.registerTool(
    'list_facts',
    tools.list_facts,
    (input) =>
      guarded(async () => {
        const { data, meta } = await service.facts(tenantId, { measure: input.measure, from: input.from, to: input.to, team: input.team, page: input.page ?? 1, replaced: input.replaced ?? false });
        return {
          rows: data as unknown as Record<string, z.infer<typeof Cell>>[],
          total: meta.total,
          marked: meta.marked,
          markedColumn: meta.markedColumn,
          replaced: meta.replaced,
          sum: meta.sum,
          page: meta.page,
          perPage: meta.perPage,
          truncated: meta.page * meta.perPage < meta.total,
          kind: meta.kind,
          columns: meta.columns,
        };
      }, log),
  );
}
