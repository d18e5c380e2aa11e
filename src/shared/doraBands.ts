/**
 * DORA 2023 performance bands, defined once for the web app (web/src/routes/dora.tsx imports this
 * file) and the MCP server (benchmarks, the bands resource). The numbers themselves come from the
 * cubes; this only places a value in a band. No imports: the web build compiles this file too.
 *
 * Source: Google Cloud, "Accelerate State of DevOps Report 2023", section "Software delivery
 * performance", table of the four clusters:
 *   deployment frequency      elite: on demand (several a day) · high: daily to weekly ·
 *                             medium: weekly to monthly · low: monthly or less
 *   change lead time          elite: < 1 day · high: 1 day – 1 week · medium: 1 week – 1 month · low: longer
 *   change failure rate       elite: 5 % · high: 10 % · medium: 15 % · low: 64 %
 *   failed deployment recovery elite: < 1 hour · high: < 1 day · medium: 1 day – 1 week · low: longer
 * The report gives cluster centres and ranges, which overlap at the lower end (medium and low share a
 * frequency range); we use each range's upper bound as the threshold of the band and place a value in
 * the best band whose threshold it meets. Time to restore (mttr) uses the recovery-time thresholds.
 */
export type Tier = 'elite' | 'high' | 'medium' | 'low';

export const TIERS: readonly Tier[] = ['elite', 'high', 'medium', 'low'];

export const DORA_SOURCE =
  'Google Cloud, "Accelerate State of DevOps Report 2023", section "Software delivery performance" (the four performance clusters)';

const HOUR = 3600;
const DAY = 24 * HOUR;

export const THRESHOLDS = {
  /** Production deployments per day in the window, at least. */
  deploymentFrequency: { elite: 1, high: 1 / 7, medium: 1 / 30 },
  /** Seconds, less than. */
  leadTime: { elite: DAY, high: 7 * DAY, medium: 30 * DAY },
  /** Ratio, at most. */
  changeFailureRate: { elite: 0.05, high: 0.1, medium: 0.15 },
  /** Seconds, less than. */
  recoveryTime: { elite: HOUR, high: DAY, medium: 7 * DAY },
} as const;

export type DoraMetric = keyof typeof THRESHOLDS;

/** How each band's threshold reads: the comparison a value must pass, and its unit. */
export const THRESHOLD_RULES: Record<DoraMetric, { comparison: 'at least' | 'less than' | 'at most'; unit: string }> = {
  deploymentFrequency: { comparison: 'at least', unit: 'production deployments per day' },
  leadTime: { comparison: 'less than', unit: 'seconds' },
  changeFailureRate: { comparison: 'at most', unit: 'ratio (0–1)' },
  recoveryTime: { comparison: 'less than', unit: 'seconds' },
};

const below = (value: number, t: { elite: number; high: number; medium: number }): Tier =>
  value < t.elite ? 'elite' : value < t.high ? 'high' : value < t.medium ? 'medium' : 'low';

export function leadTimeTier(seconds: number | null): Tier | null {
  return seconds === null ? null : below(seconds, THRESHOLDS.leadTime);
}

export function recoveryTier(seconds: number | null): Tier | null {
  return seconds === null ? null : below(seconds, THRESHOLDS.recoveryTime);
}

export function changeFailureTier(rate: number | null): Tier | null {
  if (rate === null) return null;
  const t = THRESHOLDS.changeFailureRate;
  return rate <= t.elite ? 'elite' : rate <= t.high ? 'high' : rate <= t.medium ? 'medium' : 'low';
}

/** The band of a rate of production deployments per day (`deployments.production_deploys_per_day`). */
export function deploymentRateTier(perDay: number | null): Tier | null {
  if (perDay === null) return null;
  const t = THRESHOLDS.deploymentFrequency;
  return perDay >= t.elite ? 'elite' : perDay >= t.high ? 'high' : perDay >= t.medium ? 'medium' : 'low';
}

/**
 * The band of `deploys` production deployments over a window of `days` days: the monthly
 * benchmarks, where the month is the window. The Overview bands the cube's rate instead, whose
 * denominator starts with the scope's deployment source.
 */
export function deploymentFrequencyTier(deploys: number | null, days: number): Tier | null {
  if (deploys === null || days <= 0) return null;
  return deploymentRateTier(deploys / days);
}


/**
 * The cube measures the bands apply to. Deployment frequency is the cube's rate per day, or a count
 * over a window (its band then needs the window's days); time to restore (mttr) and failed deployment recovery time share the
 * recovery thresholds.
 */
export const DORA_MEASURES = {
  'deployments.production_deploys': 'deploymentFrequency',
  'deployments.production_deploys_per_day': 'deploymentFrequency',
  'deployments.project_deploys_per_day_p50': 'deploymentFrequency',
  'change_lead_times.lead_time_for_changes_p50_seconds': 'leadTime',
  'deployments.change_failure_rate': 'changeFailureRate',
  'incidents.mttr_p50_seconds': 'recoveryTime',
  'deployments.failed_deployment_recovery_time_p50_seconds': 'recoveryTime',
} as const satisfies Record<string, DoraMetric>;

export type DoraMeasure = keyof typeof DORA_MEASURES;

export function isDoraMeasure(member: string): member is DoraMeasure {
  return Object.hasOwn(DORA_MEASURES, member);
}

/** The band of a DORA measure's value over a window of `days` days (days matter for frequency only). */
export function doraTier(member: DoraMeasure, value: number | null, days: number): Tier | null {
  switch (DORA_MEASURES[member]) {
    // The rate is already per day; the count needs the window's days.
    case 'deploymentFrequency': return member === 'deployments.production_deploys' ? deploymentFrequencyTier(value, days) : deploymentRateTier(value);
    case 'leadTime': return leadTimeTier(value);
    case 'changeFailureRate': return changeFailureTier(value);
    case 'recoveryTime': return recoveryTier(value);
  }
}

/**
 * The DORA rating of a scope (issue 47): the band of each measure and an overall band, one
 * definition for the organisation (Overview, the Teams page's organisation row) and each team (the
 * Teams page, the Team page). The values are the cube's, over one window.
 *
 * - Deployment frequency: a team is rated by its own rate (`production_deploys_per_day`); the
 *   organisation by the median project's rate (`project_deploys_per_day_p50`), not the total,
 *   which grows with the number of repositories: 20 repositories deploying weekly are not
 *   "elite" because together they deploy three times a day.
 * - Overall: the lowest band among DORA's four keys that have a value (deployment frequency, lead
 *   time for changes, change failure rate, failed deployment recovery time), as DORA's clusters
 *   are read: a scope is elite only when each of its measures is. Time to restore (mttr) is banded
 *   but left out of the overall band: DORA 2023 replaced it with failed deployment recovery time,
 *   and counting both would count recovery twice. `measured` says over how many of the four.
 */
export const RATING_KEYS = ['deploymentFrequency', 'leadTime', 'changeFailureRate', 'recoveryTime'] as const;
export type RatingKey = (typeof RATING_KEYS)[number];

/** The cube member each band reads; deployment frequency's differs for the organisation. */
export const RATING_MEMBERS = {
  deploymentFrequency: { team: 'deployments.production_deploys_per_day', organisation: 'deployments.project_deploys_per_day_p50' },
  leadTime: 'change_lead_times.lead_time_for_changes_p50_seconds',
  changeFailureRate: 'deployments.change_failure_rate',
  recoveryTime: 'deployments.failed_deployment_recovery_time_p50_seconds',
  timeToRestore: 'incidents.mttr_p50_seconds',
} as const;

/** Every member a rating reads: ask the cube for these (over the window, without a granularity). */
export const RATING_QUERY_MEMBERS: readonly string[] = [
  RATING_MEMBERS.deploymentFrequency.team, RATING_MEMBERS.deploymentFrequency.organisation, RATING_MEMBERS.leadTime,
  RATING_MEMBERS.changeFailureRate, RATING_MEMBERS.recoveryTime, RATING_MEMBERS.timeToRestore,
];

export interface DoraRating {
  deploymentFrequency: Tier | null;
  leadTime: Tier | null;
  changeFailureRate: Tier | null;
  recoveryTime: Tier | null;
  /** Time to restore service (incidents): banded, not part of the overall band. */
  timeToRestore: Tier | null;
  /** The lowest band among the four keys with a value; null when none has one. */
  overall: Tier | null;
  /** How many of the four keys have a value (the overall band is over these). */
  measured: number;
}

/** The lowest (worst) of the bands given, ignoring the empty ones. */
export function lowestTier(tiers: (Tier | null)[]): Tier | null {
  let worst: Tier | null = null;
  for (const t of tiers) if (t !== null && (worst === null || TIERS.indexOf(t) > TIERS.indexOf(worst))) worst = t;
  return worst;
}

/** The member deployment frequency is banded from: the median project's rate for the organisation. */
export function frequencyMember(organisation: boolean): string {
  return organisation ? RATING_MEMBERS.deploymentFrequency.organisation : RATING_MEMBERS.deploymentFrequency.team;
}

/**
 * The rating of a scope from its cube values (`value(member)`: the number, or null when empty).
 * `organisation`: the whole organisation (every project), whose frequency is the median project's.
 */
export function doraRating(value: (member: string) => number | null, organisation: boolean): DoraRating {
  const keys = {
    deploymentFrequency: deploymentRateTier(value(frequencyMember(organisation))),
    leadTime: leadTimeTier(value(RATING_MEMBERS.leadTime)),
    changeFailureRate: changeFailureTier(value(RATING_MEMBERS.changeFailureRate)),
    recoveryTime: recoveryTier(value(RATING_MEMBERS.recoveryTime)),
  };
  const tiers = RATING_KEYS.map((k) => keys[k]);
  return { ...keys, timeToRestore: recoveryTier(value(RATING_MEMBERS.timeToRestore)), overall: lowestTier(tiers), measured: tiers.filter((t) => t !== null).length };
}
