/**
 * Deployment frequency as the cube sends it (issue 38): the rate per day when at least one a day,
 * else per week, as DORA's bands read ("on demand", "daily to weekly", "weekly to monthly"); the
 * count beside it; "since <date>" when the scope's deployment source started inside the window.
 * Which of the cube's two rates to show is a comparison, never arithmetic.
 */
import { num, type CubeRow } from '../api/cube';
import { formatCount, formatDay, formatRate } from './format';

export interface DeployRate {
  /** The cube's rate per day (what the DORA band reads), or null without a source in the window. */
  perDay: number | null;
  rate: string | null;
  count: number;
  countText: string;
  /** "since 2 Mar 2026" when the denominator starts after the window's first day. */
  since: string | null;
}

export function deployRate(row: CubeRow | undefined, windowStart: string): DeployRate {
  const perDay = num(row, 'deployments.production_deploys_per_day');
  const perWeek = num(row, 'deployments.production_deploys_per_week');
  const count = num(row, 'deployments.production_deploys') ?? 0;
  const start = row?.['deployments.deployment_source_since'];
  const rate = perDay === null ? null : perDay >= 1 ? `${formatRate(perDay)} per day` : `${formatRate(perWeek ?? 0)} per week`;
  return {
    perDay,
    rate,
    count,
    countText: `${formatCount(count)} ${count === 1 ? 'deployment' : 'deployments'}`,
    since: perDay !== null && typeof start === 'string' && start.slice(0, 10) > windowStart ? `since ${formatDay(start)}` : null,
  };
}

export interface MedianProjectRate {
  /** The median project's rate per day (what the organisation's DORA band reads), or null. */
  perDay: number | null;
  rate: string | null;
  /** The projects it is the median of (its n). */
  projects: number;
}

/** The organisation's median project's deployment rate as the cube sends it (issue 47), read like `deployRate`. */
export function medianProjectRate(row: CubeRow | undefined): MedianProjectRate {
  const perDay = num(row, 'deployments.project_deploys_per_day_p50');
  const perWeek = num(row, 'deployments.project_deploys_per_week_p50');
  const rate = perDay === null ? null : perDay >= 1 ? `${formatRate(perDay)} per day` : `${formatRate(perWeek ?? 0)} per week`;
  return { perDay, rate, projects: num(row, 'deployments.rated_projects') ?? 0 };
}
