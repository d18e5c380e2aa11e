/**
 * A team beside the open-source corpus (docs/benchmarks.md): month by month, its value of each
 * measure of src/shared/ossPercentile.ts (from the team-baseline export's cube queries, and lead
 * time for changes from the change_lead_times cube, which the export has no column for) and its
 * percentile among the corpus's repository months (from the `benchmarks` cube), labelled as an
 * open-source proxy, with the DORA 2023 band where the measure has one.
 */
import type pg from 'pg';
import { cubeLoad } from '../cube/service.js';
import { AppError } from '../errors.js';
import { baselineRows } from '../exports/baseline.js';
import { daysIn, resolveWindow } from '../shared/monthWindow.js';
import { cubeGrid } from './comparison.js';
import { DORA_SOURCE, doraTier, isDoraMeasure, type Tier } from '../shared/doraBands.js';
import { corpusSize, corpusSourceOf, distributionOf, EXAMPLE_CORPUS_LABEL, EXAMPLE_CORPUS_NOTE, measuredCorpusLabel, OSS_CORPUS_QUERY, OSS_LABEL, OSS_MEASURES, ossPercentile, teamValue, type CorpusSource, type Distribution, type OssMeasure } from '../shared/ossPercentile.js';

export const PERCENTILE_DEFINITION =
  'Mid-rank percentile: among the N repository months of the open-source corpus with a value of the measure, W are worse than the team\'s value and E equal to it; percentile = 100 × (W + E/2) ÷ N. Worse is higher for PR cycle time, lead time for changes and the change failure proxy, lower for the others. 100: better than every repository month. The change failure proxy of a repository month is the share of its releases followed within 7 days by a patch release of the same major.minor or a revert on the default branch (months without a release have none), ranked against the team\'s change failure rate per deployment.';

/** The baseline export's columns under the cube members the measures name. */
const BASELINE_COLUMN: Record<string, string> = {
  'pull_requests.pr_cycle_time_p50_seconds': 'pr_cycle_time_p50_seconds',
  'pull_requests.prs_merged': 'prs_merged',
  'author_activity.active_authors': 'active_authors',
  'deployments.production_deploys': 'production_deploys',
  'deployments.change_failure_rate': 'change_failure_rate',
};

/** Not a column of the baseline export: read from its cube, team by month. */
const LEAD_TIME = 'change_lead_times.lead_time_for_changes_p50_seconds';

const MEDIAN: Record<OssMeasure['key'], string> = {
  pr_cycle_time: 'benchmarks.pr_cycle_time_p50_seconds_median',
  prs_per_author: 'benchmarks.prs_merged_per_active_author_median',
  release_frequency: 'benchmarks.releases_median',
  lead_time: 'benchmarks.lead_time_p50_seconds_median',
  change_failure: 'benchmarks.change_failure_proxy_median',
};

export interface CorpusSummary {
  /** measured: real public repositories (the shipped corpus, from their git history, or a completed run); shipped_example: a synthetic example. null: no corpus at all. */
  source: CorpusSource | null;
  /** What the percentiles rank among: `measured from the public history of N repositories, read on YYYY-MM-DD`, or `example corpus (synthetic)`; null: no corpus. */
  label: string | null;
  /** For the shipped example, the sentence saying its figures are illustrative; null otherwise. */
  note: string | null;
  generated_at: string | null;
  window: { from: string; to: string } | null;
  repositories: number;
  repository_months: number;
}

export interface OssRow {
  month: string;
  measure: OssMeasure['key'];
  title: string;
  team_value: number | null;
  /** 0–100, unrounded; null when the team has no value or the corpus none. */
  oss_percentile: number | null;
  /** Repository months with a value of the measure (the N of the percentile). */
  oss_repository_months: number;
  oss_median: number | null;
  lower_is_better: boolean;
  dora_measure: string | null;
  team_dora_band: Tier | null;
}

export interface OssBenchmark {
  team: { slug: string; name: string };
  window: { from: string; to: string };
  label: typeof OSS_LABEL;
  percentile_definition: string;
  dora_source: string;
  corpus: CorpusSummary;
  rows: OssRow[];
}

/** Every measure's distribution over the corpus, read through the `benchmarks` cube. */
export async function corpusDistributions(pool: pg.Pool, tenantId: string): Promise<Map<OssMeasure['key'], Distribution>> {
  const { data } = await cubeLoad(pool, { tenantId }, OSS_CORPUS_QUERY);
  return new Map(OSS_MEASURES.map((m) => [m.key, distributionOf(data, m.corpus)]));
}

async function corpusSummary(pool: pg.Pool, tenantId: string): Promise<{ summary: CorpusSummary; medians: Record<string, number | null> }> {
  // Grouped by the corpus source, the same for every row: one row, or none for an empty corpus.
  const { data } = await cubeLoad(pool, { tenantId }, { measures: ['benchmarks.repositories', 'benchmarks.repository_months', ...Object.values(MEDIAN)], dimensions: ['benchmarks.corpus_source'] });
  const row = data[0] ?? {};
  const kind = corpusSourceOf(row);
  // When and over which window (not measures): the source row, readable by tenant work.
  const { rows } = await pool.query(`select generated_at, to_char(window_from, 'YYYY-MM') as "from", to_char(window_to, 'YYYY-MM') as "to" from benchmark_corpus_source where id = 1`);
  const source = rows[0] as { generated_at: Date; from: string; to: string } | undefined;
  const number = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    summary: {
      source: kind,
      label: kind === 'shipped_example' ? EXAMPLE_CORPUS_LABEL : kind === 'measured' && source ? measuredCorpusLabel(number(row['benchmarks.repositories']) ?? 0, source.generated_at.toISOString().slice(0, 10)) : null,
      note: kind === 'shipped_example' ? EXAMPLE_CORPUS_NOTE : null,
      generated_at: source ? source.generated_at.toISOString() : null,
      window: source ? { from: source.from, to: source.to } : null,
      repositories: number(row['benchmarks.repositories']) ?? 0,
      repository_months: number(row['benchmarks.repository_months']) ?? 0,
    },
    medians: Object.fromEntries(Object.entries(MEDIAN).map(([key, member]) => [key, number(row[member])])),
  };
}

/**
 * Month by month, the team's value of each open-source measure and its percentile among the
 * corpus's repository months. A team slug of another tenant, or of a disabled team, is not found.
 */
export async function teamOssBenchmark(pool: pg.Pool, tenantId: string, teamSlug: string, window: { from?: string; to?: string }): Promise<OssBenchmark> {
  const resolved = resolveWindow(window);
  const rows = await baselineRows(pool, tenantId, resolved, teamSlug);
  const own = rows[0];
  if (!own) throw new AppError('not_found', `No enabled team with slug ${teamSlug} (list_dimension_values on teams.slug lists them)`);
  const [distributions, { summary, medians }, leadTimes] = await Promise.all([
    corpusDistributions(pool, tenantId),
    corpusSummary(pool, tenantId),
    cubeGrid(pool, tenantId, LEAD_TIME, resolved, own.team_id as string),
  ]);
  const out: OssRow[] = [];
  for (const r of rows) {
    const month = r.month as string;
    const members: Record<string, unknown> = Object.fromEntries(Object.entries(BASELINE_COLUMN).map(([member, column]) => [member, r[column as keyof typeof r]]));
    members[LEAD_TIME] = leadTimes.get(`${own.team_id as string}|${month}`) ?? null;
    for (const m of OSS_MEASURES) {
      const value = teamValue(m, members);
      const distribution = distributions.get(m.key) ?? [];
      out.push({
        month,
        measure: m.key,
        title: m.title,
        team_value: value,
        oss_percentile: ossPercentile(value, distribution, m.lowerIsBetter),
        oss_repository_months: corpusSize(distribution),
        oss_median: medians[m.key] ?? null,
        lower_is_better: m.lowerIsBetter,
        dora_measure: m.dora,
        team_dora_band: m.dora && isDoraMeasure(m.dora) ? doraTier(m.dora, value, daysIn(month)) : null,
      });
    }
  }
  return {
    team: { slug: teamSlug, name: own.team_name as string },
    window: resolved,
    label: OSS_LABEL,
    percentile_definition: PERCENTILE_DEFINITION,
    dora_source: DORA_SOURCE,
    corpus: summary,
    rows: out,
  };
}
