import type { CubeQuery } from '../cube';
import type { Scope } from '../../lib/scope';
import { OSS_MEASURES } from '../../../../src/shared/ossPercentile';
import { factQuery, type Fact } from './common';

/** The scope's own month values of the open-source measures (the last month of the window). */
export const OSS_FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged'] },
  { time: 'author_activity.happened_at', measures: ['author_activity.active_authors'] },
  { time: 'deployments.created_at', measures: ['deployments.production_deploys', 'deployments.change_failure_rate'] },
];

export const ossTeamMonth = (scope: Scope): CubeQuery => factQuery(OSS_FACTS, scope, { from: scope.to, to: scope.to });

/**
 * The whole corpus in one query: repository months per combination of the measures' values, with
 * the corpus's source (the same for every tenant). distributionOf() reads one measure's
 * distribution from these rows, skipping the months without a value.
 */
export const OSS_CORPUS_LIMIT = 50_000;
export const ossCorpus: CubeQuery = {
  measures: ['benchmarks.repository_months'],
  dimensions: [...OSS_MEASURES.map((m) => m.corpus), 'benchmarks.corpus_source'],
  limit: OSS_CORPUS_LIMIT,
};

export { OSS_MEASURES };
