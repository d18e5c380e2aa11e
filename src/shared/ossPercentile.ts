/**
 * A team's percentile among open-source repositories (the "open-source proxy", docs/benchmarks.md),
 * defined once for the web app (web/src/routes/dora.tsx imports this file) and the MCP server. The
 * numbers come from the cubes: the team's value from its fact cube, the open-source values from the
 * `benchmarks` cube (one per repository month); this only ranks the one among the others, as
 * doraBands.ts only bands. No imports: the web build compiles this file too.
 *
 * Definition (mid-rank): among the N repository months of the corpus that have a value of the
 * measure, W are worse than the team's value and E equal to it; the percentile is
 * 100 × (W + E / 2) ÷ N. "Worse" is higher for a measure where lower is better (cycle time, lead
 * time, the change failure proxy: the share of a repository month's releases followed within 7 days
 * by a patch release of the same major.minor or a revert, ranked against the team's change failure
 * rate per deployment) and lower otherwise. 100 means better than every repository month, 0 worse
 * than all, 50 the middle. Empty when the team has no value or the corpus none.
 */

export const OSS_LABEL = 'open-source proxy';

/**
 * Which corpus the percentiles rank among (the `benchmarks.corpus_source` dimension): measured
 * (the corpus shipped with the server, measured from the public git history of real repositories,
 * or one a deployment with CODEHOST_PUBLIC_TOKEN measured) or shipped_example (a synthetic example
 * corpus, illustrative only). Every place showing the percentiles says which, and for a measured
 * one from how many repositories and when they were read.
 */
export const CORPUS_SOURCES = ['shipped_example', 'measured'] as const;
export type CorpusSource = (typeof CORPUS_SOURCES)[number];
export const EXAMPLE_CORPUS_LABEL = 'example corpus (synthetic)';
export const EXAMPLE_CORPUS_NOTE =
  'Example corpus shipped with the server (synthetic repositories): its percentiles are illustrative, not measured. Set CODEHOST_PUBLIC_TOKEN to measure real open-source repositories.';

/** How a measured corpus is named wherever its percentiles are shown: `measured from the public history of 30 repositories, read on 2026-11-27`. */
export function measuredCorpusLabel(repositories: number, readOn: string): string {
  return `measured from the public history of ${repositories} ${repositories === 1 ? 'repository' : 'repositories'}, read on ${readOn}`;
}

/** The label of the corpus a `benchmarks` row of OSS_CORPUS_QUERY belongs to, or null (no corpus). */
export function corpusLabelOf(row: Record<string, unknown> | undefined): string | null {
  const source = corpusSourceOf(row);
  if (source === 'shipped_example') return EXAMPLE_CORPUS_LABEL;
  const repositories = Number(row?.['benchmarks.corpus_repositories']);
  const readOn = row?.['benchmarks.corpus_read_on'];
  return source === 'measured' && Number.isFinite(repositories) && typeof readOn === 'string' ? measuredCorpusLabel(repositories, readOn) : null;
}

/** The source a `benchmarks` row grouped by benchmarks.corpus_source names, or null. */
export function corpusSourceOf(row: Record<string, unknown> | undefined): CorpusSource | null {
  const value = row?.['benchmarks.corpus_source'];
  return (CORPUS_SOURCES as readonly unknown[]).includes(value) ? (value as CorpusSource) : null;
}

export interface OssMeasure {
  key: 'pr_cycle_time' | 'prs_per_author' | 'release_frequency' | 'lead_time' | 'change_failure';
  title: string;
  /** The `benchmarks` dimension holding a repository month's value. */
  corpus: string;
  /** How the team's value is read from the cubes (a measure, or a ratio of two). */
  team: { measure: string } | { numerator: string; denominator: string };
  lowerIsBetter: boolean;
  /** The DORA measure whose band is shown beside it, if any (src/shared/doraBands.ts). */
  dora: string | null;
  unit: 'seconds' | 'ratio' | 'count';
}

export const OSS_MEASURES: readonly OssMeasure[] = [
  { key: 'pr_cycle_time', title: 'PR cycle time p50', corpus: 'benchmarks.pr_cycle_time_p50_seconds', team: { measure: 'pull_requests.pr_cycle_time_p50_seconds' }, lowerIsBetter: true, dora: null, unit: 'seconds' },
  {
    key: 'prs_per_author', title: 'PRs merged per active author', corpus: 'benchmarks.prs_merged_per_active_author',
    team: { numerator: 'pull_requests.prs_merged', denominator: 'author_activity.active_authors' }, lowerIsBetter: false, dora: null, unit: 'ratio',
  },
  { key: 'release_frequency', title: 'Release frequency (production deployments a month)', corpus: 'benchmarks.releases', team: { measure: 'deployments.production_deploys' }, lowerIsBetter: false, dora: 'deployments.production_deploys', unit: 'count' },
  {
    key: 'lead_time', title: 'Lead time for changes p50 (commit to release tag)', corpus: 'benchmarks.lead_time_p50_seconds',
    team: { measure: 'change_lead_times.lead_time_for_changes_p50_seconds' }, lowerIsBetter: true, dora: 'change_lead_times.lead_time_for_changes_p50_seconds', unit: 'seconds',
  },
  { key: 'change_failure', title: 'Change failure rate per deployment vs share of releases followed by a patch release or revert within 7 days', corpus: 'benchmarks.change_failure_proxy', team: { measure: 'deployments.change_failure_rate' }, lowerIsBetter: true, dora: 'deployments.change_failure_rate', unit: 'ratio' },
];

/** The values of one measure over the corpus: [value, repository months with it]. */
export type Distribution = readonly (readonly [number, number])[];

/**
 * The whole corpus in one cube query: repository months per combination of the measures' values,
 * with the corpus's source, repositories and read date (the same for every row and tenant). distributionOf() reads one measure's
 * distribution from these rows, skipping the months without a value. 50,000 rows, Cube's most, is
 * far above 12 months of the sampled repositories. Used by the web app and the MCP tool alike.
 */
export const OSS_CORPUS_QUERY: { measures: string[]; dimensions: string[]; limit: number } = {
  measures: ['benchmarks.repository_months'],
  dimensions: [...OSS_MEASURES.map((m) => m.corpus), 'benchmarks.corpus_source', 'benchmarks.corpus_repositories', 'benchmarks.corpus_read_on'],
  limit: 50_000,
};

/** Builds a distribution from `benchmarks` rows grouped by the measure's dimension (empty values left out). */
export function distributionOf(rows: readonly Record<string, unknown>[], dimension: string, countMeasure = 'benchmarks.repository_months'): Distribution {
  const out: [number, number][] = [];
  for (const row of rows) {
    const value = row[dimension];
    const count = Number(row[countMeasure]);
    if (value === null || value === undefined || value === '' || !Number.isFinite(Number(value)) || !(count > 0)) continue;
    out.push([Number(value), count]);
  }
  return out;
}

/** Repository months with a value. */
export function corpusSize(distribution: Distribution): number {
  return distribution.reduce((n, [, count]) => n + count, 0);
}

/** The mid-rank percentile (0–100) of `value` in `distribution`; null without a value or a corpus. */
export function ossPercentile(value: number | null, distribution: Distribution, lowerIsBetter: boolean): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  let total = 0;
  let worse = 0;
  let equal = 0;
  for (const [v, count] of distribution) {
    total += count;
    if (v === value) equal += count;
    else if (lowerIsBetter ? v > value : v < value) worse += count;
  }
  if (total === 0) return null;
  return (100 * (worse + equal / 2)) / total;
}

/** The team's value of a measure from a cube row; a ratio without a denominator is empty. */
export function teamValue(measure: OssMeasure, row: Record<string, unknown> | undefined): number | null {
  const read = (key: string): number | null => {
    const v = row?.[key];
    return v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  if ('measure' in measure.team) return read(measure.team.measure);
  const numerator = read(measure.team.numerator);
  const denominator = read(measure.team.denominator);
  return numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator;
}

/** "62nd percentile": whole numbers, English ordinal. */
export function percentileText(percentile: number): string {
  const n = Math.round(percentile);
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix} percentile`;
}
