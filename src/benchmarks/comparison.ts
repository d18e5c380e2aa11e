/**
 * A team against its organisation (the median of every enabled team, month by month) and against
 * the DORA 2023 bands. The team × month grid is the team-baseline export's (so a quiet month is 0
 * deployments, not missing), plus the two DORA medians the export has no column for, read from their
 * cubes on the same grid.
 */
import type pg from 'pg';
import { median } from './measures.js';
import { cubeLoad } from '../cube/service.js';
import { AppError } from '../errors.js';
import { DORA_SOURCE, doraTier, isDoraMeasure, type Tier } from '../shared/doraBands.js';
import { baselineRows } from '../exports/baseline.js';
import { daysIn, resolveWindow } from '../shared/monthWindow.js';

/** Benchmarked measures: [cube measure, baseline column or null (read from the cube), lower is better]. */
const MEASURES: [string, string | null, boolean | null][] = [
  ['deployments.production_deploys', 'production_deploys', false],
  ['change_lead_times.lead_time_for_changes_p50_seconds', null, true],
  ['deployments.change_failure_rate', 'change_failure_rate', true],
  ['deployments.failed_deployment_recovery_time_p50_seconds', null, true],
  ['incidents.mttr_p50_seconds', 'mttr_p50_seconds', true],
  ['pull_requests.prs_merged', 'prs_merged', null],
  ['pull_requests.pr_cycle_time_p50_seconds', 'pr_cycle_time_p50_seconds', true],
  ['issues.issues_closed', 'issues_closed', null],
  ['issues.issue_lead_time_p50_seconds', 'issue_lead_time_p50_seconds', true],
  ['author_activity.active_authors', 'active_authors', null],
  ['pull_requests.ai_assisted_pr_share', 'ai_assisted_pr_share', null],
  ['survey_responses.team_experience_score', 'team_experience_score', false],
];
export const BENCHMARK_MEASURES = MEASURES.map(([m]) => m);

/** Cube-only measures: [measure, its team dimension, its time dimension]. */
const FROM_CUBE: Record<string, [string, string]> = {
  'change_lead_times.lead_time_for_changes_p50_seconds': ['change_lead_times.team_id', 'change_lead_times.deployed_at'],
  'deployments.failed_deployment_recovery_time_p50_seconds': ['deployments.team_id', 'deployments.created_at'],
};

export interface BenchmarkRow {
  month: string;
  measure: string;
  team_value: number | null;
  /** Median over the enabled teams with a value that month (the team included). */
  org_median: number | null;
  teams_with_value: number;
  /** above, below or equal to org_median; null when either is empty. */
  vs_org_median: 'above' | 'below' | 'equal' | null;
  /** true: lower values are better; false: higher are; null: neither is better in itself. */
  lower_is_better: boolean | null;
  /** The DORA 2023 band of the team's value (DORA measures only). */
  team_dora_band: Tier | null;
  org_median_dora_band: Tier | null;
}

export interface Benchmark {
  team: { slug: string; name: string };
  window: { from: string; to: string };
  teams_compared: number;
  dora_source: string;
  rows: BenchmarkRow[];
}

/** A cube-only measure by team and month (keys `team id|YYYY-MM`), of every team or of one (`teamId`). */
export async function cubeGrid(pool: pg.Pool, tenantId: string, measure: keyof typeof FROM_CUBE, window: { from: string; to: string }, teamId?: string): Promise<Map<string, number>> {
  const [team, time] = FROM_CUBE[measure] as [string, string];
  const end = new Date(Date.UTC(Number(window.to.slice(0, 4)), Number(window.to.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const { data } = await cubeLoad(pool, { tenantId }, {
    measures: [measure],
    dimensions: [team],
    timeDimensions: [{ dimension: time, granularity: 'month', dateRange: [`${window.from}-01`, end] }],
    ...(teamId === undefined ? {} : { filters: [{ member: team, operator: 'equals', values: [teamId] }] }),
    limit: 50_000,
  });
  const grid = new Map<string, number>();
  for (const row of data) {
    const value = row[measure];
    if (typeof row[team] === 'string' && typeof value === 'number') grid.set(`${row[team]}|${String(row[`${time}.month`]).slice(0, 7)}`, value);
  }
  return grid;
}

/**
 * Month by month, the team's value of each benchmarked measure beside the median of all enabled
 * teams, and the DORA band of both. A team slug of another tenant, or of a disabled team, is not found.
 */
export async function teamBenchmark(pool: pg.Pool, tenantId: string, teamSlug: string, window: { from?: string; to?: string }): Promise<Benchmark> {
  const resolved = resolveWindow(window);
  const rows = await baselineRows(pool, tenantId, resolved);
  const own = rows.find((r) => r.team_slug === teamSlug);
  if (!own) throw new AppError('not_found', `No enabled team with slug ${teamSlug} (list_dimension_values on teams.slug lists them)`);
  const grids = new Map(await Promise.all(Object.keys(FROM_CUBE).map(async (m) => [m, await cubeGrid(pool, tenantId, m, resolved)] as const)));
  const months = [...new Set(rows.map((r) => r.month as string))];
  const teamIds = [...new Set(rows.map((r) => r.team_id as string))];
  const byCell = new Map(rows.map((r) => [`${r.team_id}|${r.month}`, r]));
  const valueOf = (teamId: string, month: string, measure: string, column: string | null): number | null => {
    if (column === null) return grids.get(measure)?.get(`${teamId}|${month}`) ?? null;
    const value = byCell.get(`${teamId}|${month}`)?.[column as keyof (typeof rows)[number]];
    return typeof value === 'number' ? value : null;
  };
  const out: BenchmarkRow[] = [];
  for (const month of months) {
    for (const [measure, column, lowerIsBetter] of MEASURES) {
      const teamValue = valueOf(own.team_id as string, month, measure, column);
      const values = teamIds.map((id) => valueOf(id, month, measure, column)).filter((v): v is number => v !== null);
      const orgMedian = median(values);
      const band = (v: number | null) => (isDoraMeasure(measure) ? doraTier(measure, v, daysIn(month)) : null);
      out.push({
        month,
        measure,
        team_value: teamValue,
        org_median: orgMedian,
        teams_with_value: values.length,
        vs_org_median: teamValue === null || orgMedian === null ? null : teamValue > orgMedian ? 'above' : teamValue < orgMedian ? 'below' : 'equal',
        lower_is_better: lowerIsBetter,
        team_dora_band: band(teamValue),
        org_median_dora_band: band(orgMedian),
      });
    }
  }
  return { team: { slug: teamSlug, name: own.team_name as string }, window: resolved, teams_compared: teamIds.length, dora_source: DORA_SOURCE, rows: out };
}
