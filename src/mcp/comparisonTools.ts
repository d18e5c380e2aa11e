/** Comparisons an analyst asks for: a team against the median of all teams and the DORA 2023 bands. */
import { z } from 'zod';
import { BENCHMARK_MEASURES } from '../benchmarks/comparison.js';
import { DORA_SOURCE, TIERS } from '../shared/doraBands.js';
import { CORPUS_SOURCES, EXAMPLE_CORPUS_NOTE, OSS_LABEL, OSS_MEASURES } from '../shared/ossPercentile.js';
import { guarded, type ToolContext, type ToolRegistry } from './toolKit.js';
import { Month } from '../shared/schemas.js';

const Band = z.enum(TIERS as [string, ...string[]]).nullable();

/** Both comparisons take a team and a window of months. */
const TeamWindow = z.strictObject({
  team: z.string().min(1).max(100).describe('The team\'s slug (list_dimension_values with teams.slug lists them)'),
  from: Month.optional().describe('First month, YYYY-MM (default: twelve months before to)'),
  to: Month.optional().describe('Last month, YYYY-MM (default: the current month, UTC)'),
});

/** The tools' declarations: the same for every request (not rebuilt per /mcp request). */
const tools = {
  team_benchmark: {
    title: 'Compare a team with the organisation and DORA',
    description: `Month by month, a team's value of each of these measures beside the median of all enabled teams (the org benchmark; teams without a value that month are left out of the median, a count of 0 is a value): ${BENCHMARK_MEASURES.join(', ')}. For the DORA measures it adds the DORA 2023 performance band (elite, high, medium, low) of the team's value and of the median; deployment frequency is banded per day of the month. Source of the bands: ${DORA_SOURCE} (resource analytics://benchmarks/dora-2023 lists the thresholds).`,
    inputSchema: TeamWindow,
    outputSchema: z.object({
      team: z.object({ slug: z.string(), name: z.string() }),
      window: z.object({ from: z.string(), to: z.string() }),
      teams_compared: z.number().int(),
      dora_source: z.string(),
      rows: z.array(
        z.object({
          month: z.string(),
          measure: z.string(),
          team_value: z.number().nullable(),
          org_median: z.number().nullable(),
          teams_with_value: z.number().int(),
          vs_org_median: z.enum(['above', 'below', 'equal']).nullable(),
          lower_is_better: z.boolean().nullable(),
          team_dora_band: Band,
          org_median_dora_band: Band,
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  team_open_source_benchmark: {
    title: 'Compare a team with open-source repositories (open-source proxy)',
    description: `Month by month, a team's value of ${OSS_MEASURES.map((m) => m.title).join(', ')} and its percentile among the repository months of the open-source benchmark corpus (public repositories; the same measures computed from their merged pull requests, commits and releases; an ${OSS_LABEL}, not a like-for-like comparison: releases stand for production deployments, so the corpus's lead time for changes runs from a commit to the first release tag holding it (the team's from its change's first commit to its production deployment), and the share of a repository month's releases followed within 7 days by a patch release of the same major.minor or a revert on the default branch stands for the team's change failure rate per deployment; a month without a release has no value). Percentile: mid-rank, 0–100, 100 = better than every repository month. The DORA 2023 band is given beside the three DORA measures. Lead time for changes has corpus values only in a corpus measured from git history (the one shipped with the server); after a run of the server's corpus job its oss_percentile is null. corpus.label names the corpus, e.g. "measured from the public history of 30 repositories, read on 2026-11-27"; corpus.source says which kind it is: measured (real public repositories: the corpus shipped with the server, measured from their public git history, where releases are release tags; its rows measured before the change failure proxy became per release have none, so change_failure has no oss_percentile until the corpus is measured again, or a completed run of the server's corpus job) or shipped_example (a synthetic example corpus: its percentiles are illustrative, not measured; corpus.note says so, and so does a second text block).`,
    inputSchema: TeamWindow,
    outputSchema: z.object({
      team: z.object({ slug: z.string(), name: z.string() }),
      window: z.object({ from: z.string(), to: z.string() }),
      label: z.literal(OSS_LABEL),
      percentile_definition: z.string(),
      dora_source: z.string(),
      corpus: z.object({
        source: z.enum(CORPUS_SOURCES).nullable(),
        label: z.string().nullable(),
        note: z.string().nullable(),
        generated_at: z.string().nullable(),
        window: z.object({ from: z.string(), to: z.string() }).nullable(),
        repositories: z.number().int(),
        repository_months: z.number().int(),
      }),
      rows: z.array(
        z.object({
          month: z.string(),
          measure: z.string(),
          title: z.string(),
          team_value: z.number().nullable(),
          oss_percentile: z.number().nullable(),
          oss_repository_months: z.number().int(),
          oss_median: z.number().nullable(),
          lower_is_better: z.boolean(),
          dora_measure: z.string().nullable(),
          team_dora_band: Band,
        }),
      ),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

export function registerComparisonTools(server: ToolRegistry, { tenantId, service, log }: ToolContext): void {
  server.registerTool(
    'team_benchmark',
    tools.team_benchmark,
    ({ team, from, to }) => guarded(async () => ({ ...(await service.teamBenchmark(tenantId, team, { from, to })) }), log),
  );

  server.registerTool(
    'team_open_source_benchmark',
    tools.team_open_source_benchmark,
    async ({ team, from, to }) => {
      const result = await guarded(async () => ({ ...(await service.teamOssBenchmark(tenantId, team, { from, to })) }), log);
      // Also said in a sentence of its own beside the JSON (which stays the first block, as for every tool), so that the example is not read as measured figures.
      const corpus = result.structuredContent?.corpus as { source?: string } | undefined;
      return corpus?.source === 'shipped_example' ? { ...result, content: [...result.content, { type: 'text', text: EXAMPLE_CORPUS_NOTE }] } : result;
    },
  );
}
