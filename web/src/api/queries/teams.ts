import type { Scope } from '../../lib/scope';
import { factQuery, type Fact } from './common';
import { ORG_RATE_MEASURES, RATE_MEASURES } from './dora';

/** The baseline measures of every team over the whole window (one row per team with data). */
export const TEAM_WINDOW_FACTS: Fact[] = [
  { time: null, measures: ['memberships.headcount'] },
  { time: 'pull_requests.merged_at', measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.ai_assisted_pr_share', 'pull_requests.ceu_total', 'pull_requests.ccv_total'] },
  { time: 'issues.closed_at', measures: ['issues.issues_closed', 'issues.issue_lead_time_p50_seconds'] },
  {
    time: 'deployments.created_at',
    measures: ['deployments.production_deploys', 'deployments.finished_production_deploys', 'deployments.change_failure_rate', 'deployments.recovered_deploys', 'deployments.failed_deployment_recovery_time_p50_seconds', ...RATE_MEASURES],
  },
  { time: 'change_lead_times.deployed_at', measures: ['change_lead_times.deployed_changes', 'change_lead_times.lead_time_for_changes_p50_seconds'] },
  { time: 'incidents.closed_at', measures: ['incidents.incidents_restored', 'incidents.mttr_p50_seconds'] },
  { time: 'ai_sessions.started_at', measures: ['ai_sessions.ai_active_users'] },
  { time: 'survey_responses.month', measures: ['survey_responses.responses', 'survey_responses.team_experience_score'] },
];

/**
 * Every team's row in one query (7 fact cubes: more than the 5 time dimensions a query takes, so
 * the window is a date filter per fact cube: `windowAsFilters`). One request, not one per group of 4
 * facts: the page stays within the request budget (docs/web.md "Within the request budget").
 */
export const teamWindow = (scope: Scope, facts: Fact[] = TEAM_WINDOW_FACTS) => factQuery(facts, scope, scope, { dimensions: ['teams.id'], teamFilter: false, windowAsFilters: true });
/**
 * The same measures for the whole organisation (every project, owned or not): the total row; with
 * the median project's deployment rate, which its DORA band reads (issue 47).
 */
export const orgWindow = (scope: Scope, facts: Fact[] = TEAM_WINDOW_FACTS) => {
  const withMedian = facts.map((f) => (f.time === 'deployments.created_at' ? { ...f, measures: [...f.measures, ...ORG_RATE_MEASURES] } : f));
  return { ...teamWindow(scope, withMedian), dimensions: [] };
};
