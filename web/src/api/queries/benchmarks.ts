import type { CubeQuery } from '../cube';
import type { Scope } from '../../lib/scope';
import { OSS_CORPUS_QUERY, OSS_MEASURES } from '../../../../src/shared/ossPercentile';
import { factQuery, type Fact } from './common';

/** The scope's own month values of the open-source measures (the last month of the window). */
export const OSS_FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged'] },
  { time: 'author_activity.happened_at', measures: ['author_activity.active_authors'] },
  { time: 'deployments.created_at', measures: ['deployments.production_deploys', 'deployments.change_failure_rate'] },
  { time: 'change_lead_times.deployed_at', measures: ['change_lead_times.lead_time_for_changes_p50_seconds'] },
];

export const ossTeamMonth = (scope: Scope): CubeQuery => factQuery(OSS_FACTS, scope, { from: scope.to, to: scope.to });

/** The whole corpus in one query (src/shared/ossPercentile.ts), asked once per tab. */
export const ossCorpus: CubeQuery = OSS_CORPUS_QUERY;

export { OSS_MEASURES };
