/**
 * `GET /api/metrics`: the measures of the team baseline by team and month, as a paged list in the
 * general API envelope. A thin layer over the same cube queries as the export.
 */
import type pg from 'pg';
import { baselineRows, type BaselineColumn } from '../exports/baseline.js';
import { resolveWindow } from '../shared/monthWindow.js';
import type { MetricsQuery } from './schemas.js';

export const METRIC_COLUMNS = [
  'active_authors', 'issues_closed', 'prs_merged', 'pr_cycle_time_p50_seconds', 'issue_lead_time_p50_seconds',
  'production_deploys', 'change_failure_rate', 'mttr_p50_seconds', 'ceu_total', 'ccv_total', 'ai_assisted_pr_share',
  'ai_seat_holders', 'ai_active_users', 'ai_sessions', 'ai_commits', 'survey_response_rate', 'team_experience_score',
  'aiva_light_overall', 'aiva_scope',
] as const satisfies readonly BaselineColumn[];

export interface MetricRow {
  team_id: string;
  team_slug: string;
  month: string;
  measures: Record<(typeof METRIC_COLUMNS)[number], number | string | null>;
}

/** Enabled teams × months of the window (team slug, month order), one page of them. */
export async function listMetrics(pool: pg.Pool, tenantId: string, query: MetricsQuery): Promise<{ rows: MetricRow[]; total: number; from: string; to: string }> {
  const window = resolveWindow(query);
  const all = await baselineRows(pool, tenantId, window, query.team);
  const page = all.slice((query.page - 1) * query.perPage, query.page * query.perPage);
  const rows = page.map((r) => ({
    team_id: r.team_id as string,
    team_slug: r.team_slug as string,
    month: r.month as string,
    measures: Object.fromEntries(METRIC_COLUMNS.map((c) => [c, r[c] as number | string | null])) as MetricRow['measures'],
  }));
  return { rows, total: all.length, ...window };
}
