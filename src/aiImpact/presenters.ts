/**
 * The body of `GET /api/ai-impact` and of the MCP tool `compare_ai_assisted` (docs/ai-impact.md).
 * Values are in the cube's units (seconds, lines, 0–1 shares); a difference is the first side
 * minus the second (AI − not AI; after − before), with its 90 % interval.
 */
import type { AiImpactLevels, AiImpactResult, BeforeAfter, Comparison, Team, Window } from './service.js';
import { LEVELS, type Level } from './levels.js';
import { LEVEL } from './statistics.js';

export interface SideBody {
  value: number | null;
  n: number;
}

export type DifferenceBody =
  | { status: 'ok'; value: number; low: number; high: number; level: number; method: 'bootstrap' | 'normal'; intervalSample?: number }
  | { status: 'not_enough_data'; minimum: number };

export interface MeasureRow<A extends string, B extends string> {
  key: string;
  title: string;
  kind: 'median' | 'share';
  unit: 'seconds' | 'lines' | 'ratio';
  /** The cube measure of the value (null for the reverted share, the ratio of `counts`). */
  measure: string | null;
  /** The cube counts behind the value: its n, and a share's numerator. */
  counts: { n: string; successes: string | null };
  /** The measure whose facts list (GET /api/facts) the value opens. */
  drill: string;
  /** Whether that list takes `split=` (ai, other or a level): a pull request or change lead time list. */
  drillSplits: boolean;
  /** The cube the value and n are read from (filter its own `ai_attribution` to reproduce them). */
  cube: 'pull_requests' | 'change_lead_times';
  difference: DifferenceBody;
  sides: Record<A, SideBody> & Record<B, SideBody>;
  /** AI against not only: the same measure for each AI attribution level (value and n; no interval). */
  levels?: Record<Level, SideBody>;
}

export type BeforeAfterBody =
  | { status: 'organisation'; message: string }
  | { status: 'no_adoption_month'; message: string; headcount: number }
  | { status: 'ok'; adoptionMonth: string; headcount: number; activeUsers: number; before: Window; after: Window; measures: MeasureRow<'after', 'before'>[] };

export interface AiImpactBody {
  data: {
    team: Team | null;
    window: Window;
    /** Which PRs count as AI-assisted: the cube dimension and the values of each side. */
    split: { member: string; ai: string[]; other: string[]; levels: Level[] };
    measures: MeasureRow<'ai', 'other'>[];
    beforeAfter: BeforeAfterBody;
  };
  /**
   * intervalSample: the most PRs of a side a median's interval is bootstrapped on; a difference
   * whose side had more says so with its own `intervalSample` (docs/ai-impact.md "Large windows").
   */
  meta: { intervalSample: number };
}

function row<A extends string, B extends string>(c: Comparison, a: A, b: B): MeasureRow<A, B> {
  const m = c.measure;
  const difference: DifferenceBody = c.difference.status === 'ok'
    ? { status: 'ok', value: c.difference.difference, low: c.difference.interval.low, high: c.difference.interval.high, level: LEVEL, method: m.kind === 'median' ? 'bootstrap' : 'normal', ...(c.intervalSample === null ? {} : { intervalSample: c.intervalSample }) }
    : { status: 'not_enough_data', minimum: c.difference.minimum };
  return {
    key: m.key, title: m.title, kind: m.kind, unit: m.unit, measure: m.value, counts: { n: m.n, successes: m.successes ?? null }, drill: m.drill, drillSplits: m.splitDrill, cube: m.cube,
    difference,
    sides: { [a]: c.a, [b]: c.b } as Record<A, SideBody> & Record<B, SideBody>,
    ...(c.levels ? { levels: c.levels } : {}),
  };
}

function presentBeforeAfter(b: BeforeAfter): BeforeAfterBody {
  if (b.status === 'organisation') return { status: 'organisation', message: 'Before/after is per team: pick a team' };
  if (b.status === 'no_adoption_month') return { status: 'no_adoption_month', message: 'No adoption month yet: no month in which AI active users reached half the headcount', headcount: b.headcount };
  return { status: 'ok', adoptionMonth: b.adoptionMonth, headcount: b.headcount, activeUsers: b.activeUsers, before: b.before, after: b.after, measures: b.comparisons.map((c) => row(c, 'after', 'before')) };
}

export function presentAiImpact(r: AiImpactResult): AiImpactBody {
  return {
    data: {
      team: r.team,
      window: r.window,
      split: { member: r.split.member, ai: [...r.split.ai], other: [...r.split.other], levels: [...LEVELS] },
      measures: r.comparisons.map((c) => row(c, 'ai', 'other')),
      beforeAfter: presentBeforeAfter(r.beforeAfter),
    },
    meta: { intervalSample: r.intervalSample },
  };
}

export interface AiImpactLevelsBody {
  data: {
    team: Team | null;
    window: Window;
    /** By measure key (the comparison's `measures[].key`): its value and n per AI attribution level. */
    levels: Record<string, Record<Level, SideBody>>;
  };
}

export function presentAiImpactLevels(r: AiImpactLevels): AiImpactLevelsBody {
  return { data: { team: r.team, window: r.window, levels: r.levels } };
}
