import type { CubeQuery } from '../cube';
import type { Scope } from '../../lib/scope';
import { dateRange, type Window } from '../../lib/window';
import { factQuery, type Fact } from './common';

export const DORA_FACTS: Fact[] = [
  {
    time: 'deployments.created_at',
    measures: [
      'deployments.production_deploys',
      'deployments.finished_production_deploys',
      'deployments.failed_production_deploys',
      'deployments.change_failure_rate',
      'deployments.recovered_deploys',
      'deployments.failed_deployment_recovery_time_p50_seconds',
    ],
  },
  { time: 'incidents.closed_at', measures: ['incidents.incidents_restored', 'incidents.mttr_p50_seconds'] },
  { time: 'change_lead_times.deployed_at', measures: ['change_lead_times.deployed_changes', 'change_lead_times.lead_time_for_changes_p50_seconds'] },
];
export const DORA_TIMES = DORA_FACTS.map((f) => f.time as string);

/**
 * Deployment frequency as a rate over the window (the cube's denominator starts with the scope's
 * deployment source): asked with the window's totals only, since the cube refuses it by month.
 */
export const RATE_MEASURES = ['deployments.production_deploys_per_day', 'deployments.production_deploys_per_week', 'deployments.deployment_source_since'];
/**
 * The organisation's deployment frequency band reads the median project's rate (issue 47,
 * src/shared/doraBands.ts `doraRating`): asked for only where the scope is the organisation.
 */
export const ORG_RATE_MEASURES = ['deployments.project_deploys_per_day_p50', 'deployments.project_deploys_per_week_p50', 'deployments.rated_projects'];
const totalFacts = (scope: Scope): Fact[] =>
  DORA_FACTS.map((f, i) => (i === 0 ? { ...f, measures: [...f.measures, ...RATE_MEASURES, ...(scope.team ? [] : ORG_RATE_MEASURES)] } : f));

export const doraTotals = (scope: Scope, window: Window): CubeQuery => factQuery(totalFacts(scope), scope, window);
/**
 * The tiles' one query: the window's totals and, all time (no time dimension of its own), whether
 * any project of the scope ever sent a deployment (`projects.deployment_sources`). One request
 * where there were two (docs/web.md "Within the request budget").
 */
export const doraTiles = (scope: Scope): CubeQuery => factQuery([...totalFacts(scope), { time: null, measures: ['projects.deployment_sources'] }], scope, scope);
/** The organisation's production deployments of projects no team owns: said under its total. */
export const unownedDeploys = (window: Window): CubeQuery => ({
  measures: ['deployments.production_deploys'],
  timeDimensions: [{ dimension: 'deployments.created_at', dateRange: dateRange(window) }],
  filters: [{ member: 'deployments.team_id', operator: 'notSet' }],
});
export const doraTrend = (scope: Scope): CubeQuery => factQuery(DORA_FACTS, scope, scope, { byMonth: true });
