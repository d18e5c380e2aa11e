import type { CubeQuery } from '../cube';
import type { Scope } from '../../lib/scope';
import { OSS_MEASURES, type OssMeasure } from '../../../../src/shared/ossPercentile';
import { factQuery, type Fact } from './common';

/** The scope's own month values of the open-source measures (the last month of the window). */
export const OSS_FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged'] },
  { time: 'author_activity.happened_at', measures: ['author_activity.active_authors'] },
  { time: 'deployments.created_at', measures: ['deployments.production_deploys', 'deployments.change_failure_rate'] },
];

export const ossTeamMonth = (scope: Scope): CubeQuery => factQuery(OSS_FACTS, scope, { from: scope.to, to: scope.to });

/** One measure's values over the corpus: repository months per value (the same for every tenant). */
export const ossDistribution = (m: OssMeasure): CubeQuery => ({
  measures: ['benchmarks.repository_months'],
  dimensions: [m.corpus],
  filters: [{ member: m.corpus, operator: 'set' }],
  limit: 50_000,
});

/** Which corpus it is (benchmarks.corpus_source): one row, none for an empty corpus. */
export const ossCorpusSource: CubeQuery = { measures: ['benchmarks.repository_months'], dimensions: ['benchmarks.corpus_source'] };

export { OSS_MEASURES };
