/**
 * A team's DORA and flow figures for a span of days, from the cubes (the same measures as the
 * dashboards and the team-baseline export), for the chat tool's answers and digests and the
 * document workspace's monthly pages. Every median comes with its n.
 */
import type pg from 'pg';
import { cubeLoad } from '../../cube/service.js';
import { lastDay } from '../../shared/monthWindow.js';

export type FigureKind = 'count' | 'seconds' | 'ratio';

export interface FigureDef {
  key: string;
  title: string;
  measure: string;
  /** The count the median or ratio is taken over. */
  n?: string;
  kind: FigureKind;
  lowerIsBetter: boolean;
  group: 'DORA' | 'Flow';
}

export const FIGURES: readonly FigureDef[] = [
  { key: 'deploys', title: 'Production deployments', measure: 'deployments.production_deploys', kind: 'count', lowerIsBetter: false, group: 'DORA' },
  { key: 'lead_time', title: 'Lead time for changes p50', measure: 'change_lead_times.lead_time_for_changes_p50_seconds', n: 'change_lead_times.deployed_changes', kind: 'seconds', lowerIsBetter: true, group: 'DORA' },
  { key: 'cfr', title: 'Change failure rate', measure: 'deployments.change_failure_rate', n: 'deployments.finished_production_deploys', kind: 'ratio', lowerIsBetter: true, group: 'DORA' },
  { key: 'mttr', title: 'Time to restore p50', measure: 'incidents.mttr_p50_seconds', n: 'incidents.incidents_restored', kind: 'seconds', lowerIsBetter: true, group: 'DORA' },
  { key: 'prs_merged', title: 'PRs merged', measure: 'pull_requests.prs_merged', kind: 'count', lowerIsBetter: false, group: 'Flow' },
  { key: 'pr_cycle', title: 'PR cycle time p50', measure: 'pull_requests.pr_cycle_time_p50_seconds', n: 'pull_requests.prs_merged', kind: 'seconds', lowerIsBetter: true, group: 'Flow' },
  { key: 'issues_closed', title: 'Issues closed', measure: 'issues.issues_closed', kind: 'count', lowerIsBetter: false, group: 'Flow' },
  { key: 'issue_lead', title: 'Issue lead time p50', measure: 'issues.issue_lead_time_p50_seconds', n: 'issues.issues_closed', kind: 'seconds', lowerIsBetter: true, group: 'Flow' },
];

/** The time dimension each fact cube is counted by (as the dashboards: deployments by creation, the rest by completion). */
const TIMES = ['deployments.created_at', 'change_lead_times.deployed_at', 'incidents.closed_at', 'pull_requests.merged_at', 'issues.closed_at'];

export interface Figure {
  def: FigureDef;
  value: number | null;
  n: number | null;
}

/** Inclusive UTC days, YYYY-MM-DD. */
export interface DaySpan {
  from: string;
  to: string;
}

const numberOf = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** The figures of one team of `tenantId` over `span`: a count of 0 is a value, a median of nothing is null. */
export async function teamFigures(pool: pg.Pool, tenantId: string, teamId: string, span: DaySpan): Promise<Figure[]> {
  const measures = [...new Set(FIGURES.flatMap((f) => (f.n ? [f.measure, f.n] : [f.measure])))];
  const { data } = await cubeLoad(pool, { tenantId }, {
    measures,
    timeDimensions: TIMES.map((dimension) => ({ dimension, dateRange: [span.from, span.to] })),
    filters: [{ member: 'teams.id', operator: 'equals', values: [teamId] }],
  });
  const row = (data[0] ?? {}) as Record<string, unknown>;
  return FIGURES.map((def) => ({
    def,
    value: numberOf(row[def.measure]) ?? (def.kind === 'count' ? 0 : null),
    n: def.n ? (numberOf(row[def.n]) ?? 0) : null,
  }));
}

export function formatSeconds(seconds: number): string {
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

/** "3.2 h (n = 14)", "25% (n = 8)", "12", or "no value (n = 0)". */
export function formatFigure(f: Figure): string {
  const n = f.n === null ? '' : ` (n = ${f.n})`;
  if (f.value === null) return `no value${n}`;
  const text = f.def.kind === 'seconds' ? formatSeconds(f.value) : f.def.kind === 'ratio' ? `${Math.round(f.value * 100)}%` : String(f.value);
  return `${text}${n}`;
}

/** A change between two spans in words: "+3", "−12%"; null when either side has no value. */
export function formatChange(current: Figure, previous: Figure): string | null {
  if (current.value === null || previous.value === null) return null;
  if (current.def.kind === 'count') {
    const d = current.value - previous.value;
    return d === 0 ? '±0' : d > 0 ? `+${d}` : `−${-d}`;
  }
  if (current.def.kind === 'ratio') {
    const d = Math.round((current.value - previous.value) * 100);
    return d === 0 ? '±0 pts' : d > 0 ? `+${d} pts` : `−${-d} pts`;
  }
  if (previous.value === 0) return null;
  const pct = Math.round(((current.value - previous.value) / previous.value) * 100);
  return pct === 0 ? '±0%' : pct > 0 ? `+${pct}%` : `−${-pct}%`;
}

export const teamPageUrl = (appUrl: string, teamId: string) => `${appUrl}/app/teams/${teamId}`;

/** UTC days of a month, YYYY-MM. */
export function monthSpan(month: string): DaySpan {
  return { from: `${month}-01`, to: lastDay(month) };
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const DAY_MS = 86_400_000;
