/**
 * "AI against not" (issue 47 point 3; METRICS.md; docs/ai-impact.md): for a team or the
 * organisation and a window, every flow and quality measure over the AI-assisted merged PRs and
 * over the others, and for a team the same over equal windows before and after its adoption month.
 * Every value and n is the cube's (the same query `/cubejs-api/v1/load` answers, filtered on the
 * split's dimension); the per-PR values the bootstrap resamples are the cube's PR rows, read as the
 * drill lists read them. Only the difference's interval is computed here (statistics.ts). A side
 * with more merged PRs than `intervalSample` has its interval bootstrapped on a random sample of
 * them (docs/ai-impact.md "Large windows"): no window or organisation is too large to answer, and
 * the sample is all the rows the cube is asked for (a filter on `pull_requests.sample_bucket`).
 */
import type pg from 'pg';
import { cubeLoad as load, type CubeScope } from '../cube/service.js';
import type { Row } from '../cube/plan.js';
import { AppError } from '../errors.js';
import { currentMonth, lastDay, monthIndex, monthOf, resolveWindow } from '../shared/monthWindow.js';
import { LEVELS, type Level } from './levels.js';
import { medianDifference, MIN_SAMPLE, resampleMedians, sampledMedianDifference, shareDifference, type Difference, type ResampledMedians } from './statistics.js';

/**
 * Every read of an answer through the cube, without parallel workers: an answer runs its five
 * queries side by side, each over every merged PR of the window, and on a machine with fewer cores
 * than queries the workers only add work (their Gather) without shortening the answer: the
 * organisation's four value queries in a row, quiet, took 4.0 s with workers and 3.7 s in one
 * process each (docs/benchmarks/2026-11-29-ai-impact-queries.md).
 */
const cubeLoad = (pool: pg.Pool, scope: CubeScope, input: unknown) => load(pool, scope, input, { serial: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The adoption month: the first with ai_active_users ÷ headcount at or above this. */
export const ADOPTION_THRESHOLD = 0.5;
/**
 * At most this many merged PRs of a side are read for a median's interval. A side with more is
 * sampled: its PRs ordered by `pull_requests.sample_bucket` (a hash of the id, so independent of
 * every value) and then id, and the first this many kept, the same PRs on every request.
 */
export const INTERVAL_SAMPLE = 2000;
/** The values of `pull_requests.sample_bucket`: 0 to 2^20 − 1 (schema/pull_requests.yml). */
export const SAMPLE_BUCKETS = 2 ** 20;

/**
 * The buckets a side of n PRs is first read with to find its sample of `cap`: enough that fewer
 * than `cap` PRs fall below it only four standard deviations out (then twice as many are read).
 */
export const sampleBuckets = (n: number, cap: number): number =>
  Math.min(SAMPLE_BUCKETS, Math.ceil((SAMPLE_BUCKETS * (cap + 4 * Math.sqrt(cap) + 10)) / Math.max(n, 1)));

export { LEVELS, type Level };

/**
 * Which merged PRs are "AI": the one place the split is decided. AI-assisted = attribution level
 * high or medium (the cube's `ai_assisted`); the others are low or none. The split is on the
 * level's dimension of whichever cube a measure reads (pull_requests or change_lead_times).
 */
export const AI_SPLIT = { member: 'pull_requests.ai_attribution', ai: ['high', 'medium'], other: ['low', 'none'] } as const;

export type Side = 'ai' | 'other';
/** One side of the split, or one attribution level (a drill list's `split`). */
export type Split = Side | Level;
const levelsOf = (split: Split): readonly string[] => (split === 'ai' || split === 'other' ? AI_SPLIT[split] : [split]);
/** The cube filter that keeps one side of the split or one level, on `cube`'s own ai_attribution. */
export const splitFilter = (split: Split, cube = 'pull_requests') => ({ member: `${cube}.ai_attribution`, operator: 'equals', values: [...levelsOf(split)] });

export interface MeasureSpec {
  key: string;
  title: string;
  /** A median (bootstrap interval) or a share (normal interval). */
  kind: 'median' | 'share';
  unit: 'seconds' | 'lines' | 'ratio';
  /** The cube measure of the value (null: the share is computed from its two cube counts). */
  value: string | null;
  /** The cube count that is the value's n. */
  n: string;
  /** For a share: the cube count of its numerator. */
  successes?: string;
  /** The PR row's dimension the median is taken over (median kinds). */
  perPr?: string;
  /** The measure whose drill list (GET /api/facts) the value opens. */
  drill: string;
  /** The cube the value and n are read from (its own merged_at, team_id and ai_attribution). */
  cube: 'pull_requests' | 'change_lead_times';
  /** Whether the drill list splits by side and level (`split=`): a pull request list only. */
  splitDrill: boolean;
}

const P = (m: string) => `pull_requests.${m}`;
const C = (m: string) => `change_lead_times.${m}`;
/** Every flow and quality measure of the comparison, in the page's order. */
const BASE: Omit<MeasureSpec, 'cube' | 'splitDrill'>[] = [
  { key: 'cycle_time', title: 'PR cycle time', kind: 'median', unit: 'seconds', value: P('pr_cycle_time_p50_seconds'), n: P('prs_merged'), perPr: P('cycle_time_seconds'), drill: P('pr_cycle_time_p50_seconds') },
  { key: 'coding_time', title: 'Coding time', kind: 'median', unit: 'seconds', value: P('coding_time_p50_seconds'), n: P('coding_time_count'), perPr: P('coding_time_seconds'), drill: P('coding_time_p50_seconds') },
  { key: 'pickup_time', title: 'Pickup time', kind: 'median', unit: 'seconds', value: P('pickup_time_p50_seconds'), n: P('pickup_time_count'), perPr: P('pickup_time_seconds'), drill: P('pickup_time_p50_seconds') },
  { key: 'review_time', title: 'Review time', kind: 'median', unit: 'seconds', value: P('review_time_p50_seconds'), n: P('review_time_count'), perPr: P('review_time_seconds'), drill: P('review_time_p50_seconds') },
  { key: 'deploy_time', title: 'Deploy time', kind: 'median', unit: 'seconds', value: P('deploy_time_p50_seconds'), n: P('deploy_time_count'), perPr: P('deploy_time_seconds'), drill: P('deploy_time_p50_seconds') },
  { key: 'pr_size', title: 'PR size', kind: 'median', unit: 'lines', value: P('pr_size_p50'), n: P('prs_merged'), perPr: P('pr_size'), drill: P('pr_size_p50') },
  { key: 'merged_without_review', title: 'Merged without review', kind: 'share', unit: 'ratio', value: P('merged_without_review_share'), n: P('prs_merged'), successes: P('merged_without_review_prs'), drill: P('merged_without_review_share') },
  { key: 'reverted', title: 'Reverted within 30 days', kind: 'share', unit: 'ratio', value: null, n: P('prs_merged'), successes: P('reverted_prs'), drill: P('reverted_prs') },
  { key: 'change_failure_rate', title: 'Change failure rate of the deployments that shipped them', kind: 'share', unit: 'ratio', value: C('shipping_change_failure_rate'), n: C('shipping_deploys'), successes: C('failed_shipping_deploys'), drill: 'deployments.change_failure_rate' },
];
export const MEASURES: readonly MeasureSpec[] = BASE.map((m) => ({ ...m, cube: m.n.startsWith('change_lead_times.') ? 'change_lead_times' : 'pull_requests', splitDrill: m.drill.startsWith('pull_requests.') }));

/**
 * The member a value is read from: a pull_requests member's stored copy, change_lead_times' hidden
 * member of the same name (migration 0084: each merged PR's values stored beside its lead time by the
 * same rules, the pr_*_seconds functions), so that a window's answer reads change_lead_times alone
 * instead of joining its merged PRs to their level and delivery facts (docs/ai-impact.md "Queries").
 * The answer names the pull_requests members, whose values these are (aiImpact.test.ts compares them
 * with `/cubejs-api/v1/load`).
 */
const STORED = 'change_lead_times';
export const readAs = (member: string): string => (member.startsWith('pull_requests.') ? `${STORED}.${member.slice('pull_requests.'.length)}` : member);
const at = (row: Row, member: string) => num(row[readAs(member)]);

export interface SideValue {
  value: number | null;
  n: number;
}

export interface Comparison {
  measure: MeasureSpec;
  a: SideValue;
  b: SideValue;
  /** The same measure for each attribution level (the AI split only). */
  levels?: Record<Level, SideValue>;
  /** a − b with its 90 % interval, or not enough data. */
  difference: Difference;
  /** A median's interval from a sample of a side's PRs: the sample cap (null: every PR). */
  intervalSample: number | null;
}

export interface Window {
  from: string;
  to: string;
}

export interface Team {
  id: string;
  slug: string;
  name: string;
}

export type BeforeAfter =
  | { status: 'organisation' }
  | { status: 'no_adoption_month'; headcount: number }
  | { status: 'ok'; adoptionMonth: string; headcount: number; activeUsers: number; before: Window; after: Window; comparisons: Comparison[] };

export interface AiImpactResult {
  team: Team | null;
  window: Window;
  split: typeof AI_SPLIT;
  comparisons: Comparison[];
  beforeAfter: BeforeAfter;
  /** The most PRs of a side a median's interval is bootstrapped on. */
  intervalSample: number;
}

/** A team of the tenant by slug or id; an unknown team, or another tenant's, is a 404 naming the value. */
async function requireTeam(pool: pg.Pool, tenantId: string, ref: string): Promise<Team> {
  const { rows } = await pool.query<Team>(
    'select id, slug, name from teams where tenant_id = $1 and (slug = $2 or id::text = $3)',
    [tenantId, ref, UUID.test(ref) ? ref.toLowerCase() : null],
  );
  if (!rows[0]) throw new AppError('not_found', `Team not found: "${ref}" is no team of this organisation (teams.slug or teams.id)`, [{ path: 'query.team', message: 'No such team' }]);
  return rows[0];
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const days = (w: Window): [string, string] => [`${w.from}-01`, lastDay(w.to)];
const teamFilter = (cube: string, team: Team | null) => (team ? [{ member: `${cube}.team_id`, operator: 'equals', values: [team.id] }] : []);

/** The per-PR values the medians' intervals resample, as read (readAs). */
const PER_PR = MEASURES.flatMap((m) => (m.perPr ? [readAs(m.perPr)] : []));

/** Every value, n and numerator MEASURES reads, as read (readAs). */
const MEASURES_READ = [...new Set(MEASURES.flatMap((m) => [m.value, m.n, m.successes].filter((x): x is string => !!x).map(readAs)))];

/**
 * Cube values of a window (every measure's, or `members`), in one query of the stored values
 * (readAs): `by` null, one row; 'ai_side' or 'ai_attribution', one row per side or level (`keys`).
 */
async function cubeValues(pool: pg.Pool, tenantId: string, team: Team | null, window: Window, by: 'ai_side' | 'ai_attribution' | null = null, keys: readonly string[] = [], members: readonly string[] = MEASURES_READ): Promise<Row[]> {
  const answer = await cubeLoad(pool, { tenantId }, {
    measures: members.map(readAs),
    ...(by ? { dimensions: [`${STORED}.${by}`] } : {}),
    timeDimensions: [{ dimension: `${STORED}.merged_at`, dateRange: days(window) }],
    filters: teamFilter(STORED, team),
  });
  if (!by) return [answer.data[0] ?? {}];
  return keys.map((key) => ({ [by]: key, ...(answer.data.find((r) => r[`${STORED}.${by}`] === key) ?? {}) }));
}

async function sideValues(pool: pg.Pool, tenantId: string, team: Team | null, window: Window): Promise<Row> {
  return (await cubeValues(pool, tenantId, team, window))[0] as Row;
}

interface SideRows {
  /** One row per merged PR (or per PR of the sample). */
  rows: Row[];
  /** Whether `rows` is a sample: the side has more merged PRs than the cap. */
  sampled: boolean;
}

/**
 * One side's merged PRs, one row each with the values the medians are taken over (as the drill
 * lists read them). `n`, the cube's count of them, decides: at most `cap`, every one (by id);
 * more, the sample: the first `cap` by (sample_bucket, id), asked for with a filter
 * `sample_bucket < k` that leaves about cap + 4√cap of them, so the cube computes and returns
 * those rows and not the side's n. A filter that left fewer than `cap` (a chance of about 1 in
 * 30,000, or a write since the count) is asked again with twice the buckets: the first `cap` of
 * a prefix of that order are the first `cap` of the whole, whatever k.
 */
export async function sideRows(pool: pg.Pool, tenantId: string, team: Team | null, window: Window, split: Split | null, cap: number, n: number): Promise<SideRows> {
  const query = {
    timeDimensions: [{ dimension: `${STORED}.merged_at`, dateRange: days(window) }],
    filters: [...(split ? [splitFilter(split, STORED)] : []), ...teamFilter(STORED, team)],
    ungrouped: true,
    limit: cap,
  };
  if (n <= cap) {
    const result = await cubeLoad(pool, { tenantId }, { ...query, dimensions: [`${STORED}.id`, ...PER_PR], order: [[`${STORED}.id`, 'asc']], total: true });
    return { rows: result.data, sampled: (result.total ?? 0) > cap };
  }
  for (let buckets = sampleBuckets(n, cap); ; buckets = Math.min(SAMPLE_BUCKETS, buckets * 2)) {
    const result = await cubeLoad(pool, { tenantId }, {
      ...query,
      dimensions: [`${STORED}.sample_bucket`, `${STORED}.id`, ...PER_PR],
      filters: [...query.filters, { member: `${STORED}.sample_bucket`, operator: 'lt', values: [String(buckets)] }],
      order: [[`${STORED}.sample_bucket`, 'asc'], [`${STORED}.id`, 'asc']],
    });
    if (result.data.length >= cap || buckets >= SAMPLE_BUCKETS) return { rows: result.data, sampled: true };
  }
}

const SIDES: readonly Side[] = ['ai', 'other'];
const sideIs = (side: Side) => ({ member: `${STORED}.ai_side`, operator: 'equals', values: [side] });

/** The most rows `pairRows` reads at once. */
export const PAIR_LIMIT = 50_000;

/**
 * Both sides' merged PRs in one query (as `sideRows` reads one side): each side's own filter, every
 * PR of a side at or under the cap or the buckets of its sample, joined by OR. A sample that came
 * back short (a write since the count, or chance) is asked again alone, as `sideRows` does; so is
 * every side when the query met its limit (counts far behind the rows, e.g. a large catch-up
 * between the two reads), which could otherwise have left a side's rows out.
 */
export async function pairRows(pool: pg.Pool, tenantId: string, team: Team | null, window: Window, cap: number, n: Record<Side, number>, limit = PAIR_LIMIT): Promise<Record<Side, SideRows>> {
  const result = await cubeLoad(pool, { tenantId }, {
    dimensions: [`${STORED}.ai_side`, `${STORED}.sample_bucket`, `${STORED}.id`, ...PER_PR],
    timeDimensions: [{ dimension: `${STORED}.merged_at`, dateRange: days(window) }],
    filters: [
      ...teamFilter(STORED, team),
      { or: SIDES.map((side) => (n[side] <= cap ? sideIs(side) : { and: [sideIs(side), { member: `${STORED}.sample_bucket`, operator: 'lt', values: [String(sampleBuckets(n[side], cap))] }] })) },
    ],
    order: [[`${STORED}.ai_side`, 'asc'], [`${STORED}.sample_bucket`, 'asc'], [`${STORED}.id`, 'asc']],
    ungrouped: true,
    limit,
  });
  const full = result.data.length >= limit;
  const pair = await Promise.all(SIDES.map(async (side): Promise<SideRows> => {
    if (full) return sideRows(pool, tenantId, team, window, side, cap, n[side]);
    const rows = result.data.filter((r) => r[`${STORED}.ai_side`] === side);
    if (n[side] <= cap) return rows.length <= cap ? { rows, sampled: false } : { rows: rows.slice(0, cap), sampled: true };
    if (rows.length >= cap) return { rows: rows.slice(0, cap), sampled: true };
    return sideRows(pool, tenantId, team, window, side, cap, n[side]);
  }));
  return { ai: pair[0]!, other: pair[1]! };
}

/** Each side's merged PRs in the window: how many (`prs_merged` grouped by `ai_side`). */
async function sideCounts(pool: pg.Pool, tenantId: string, team: Team | null, window: Window): Promise<Record<Side, number>> {
  const [ai, other] = await cubeValues(pool, tenantId, team, window, 'ai_side', SIDES, [P('prs_merged')]);
  return { ai: at(ai!, P('prs_merged')) ?? 0, other: at(other!, P('prs_merged')) ?? 0 };
}

interface SideData extends SideRows {
  values: Row;
}

/**
 * Each median measure's per-PR values of two sides (sorted) and their resampled medians, by measure
 * key, seeded by the measure's place: the bootstrap's costly part, which needs only the rows.
 */
type Resamples = Map<string, { a: number[]; b: number[]; drawn: ResampledMedians | null }>;
const resample = (a: SideRows, b: SideRows): Resamples =>
  new Map(MEASURES.flatMap((m, i) => {
    if (m.kind !== 'median') return [];
    const [va, vb] = [perPrValues(a.rows, m.perPr!), perPrValues(b.rows, m.perPr!)];
    return [[m.key, { a: va, b: vb, drawn: resampleMedians(va, vb, i + 1) }] as const];
  }));

/**
 * The sides of one answer, each read once: the window's AI and other sides together (one query
 * per cube grouped by `ai_side`, one for both sides' rows), and a window's whole (before/after),
 * which is the union of its two sides when both were read in full rather than a third read.
 */
class Sides {
  private readonly loads = new Map<string, Promise<SideData>>();
  private readonly pairs = new Map<string, Promise<Record<Side, SideData> & { resamples: Resamples }>>();

  constructor(private readonly pool: pg.Pool, private readonly tenantId: string, private readonly team: Team | null, private readonly cap: number) {}

  /** The window's AI and other sides, with their medians' resamples drawn while the values were read. */
  both(window: Window): Promise<Record<Side, SideData> & { resamples: Resamples }> {
    const key = `${window.from}/${window.to}`;
    let pair = this.pairs.get(key);
    if (!pair) this.pairs.set(key, (pair = this.pair(window)));
    return pair;
  }

  /** The window's whole (both sides together): before/after adoption. */
  get(window: Window): Promise<SideData> {
    const key = `${window.from}/${window.to}`;
    let load = this.loads.get(key);
    if (!load) this.loads.set(key, (load = this.whole(window)));
    return load;
  }

  /**
   * The sides' values and their rows side by side: the rows' query needs each side's n (whether
   * and how to sample it), asked first on its own (a count, a fraction of the values' medians), so
   * that it runs beside the values' query rather than after it. An n changed by a write between
   * the two reads is met as in `pairRows` (a short sample is asked again); the answer's n are the
   * values' own. The bootstrap's resamples need only the rows: drawn as soon as they are in, while
   * the database still computes the values (the organisation's: 0.2 s of the answer's 0.6 s).
   */
  private async pair(window: Window): Promise<Record<Side, SideData> & { resamples: Resamples }> {
    const { pool, tenantId, team, cap } = this;
    const values = cubeValues(pool, tenantId, team, window, 'ai_side', SIDES);
    const rows = sideCounts(pool, tenantId, team, window)
      .then((n) => pairRows(pool, tenantId, team, window, cap, n))
      .then((pair) => ({ ...pair, resamples: resample(pair.ai, pair.other) }));
    const [[ai, other], pair] = await Promise.all([values, rows]);
    return { ai: { values: ai!, ...pair.ai }, other: { values: other!, ...pair.other }, resamples: pair.resamples };
  }

  private async whole(window: Window): Promise<SideData> {
    const { pool, tenantId, team, cap } = this;
    const values = sideValues(pool, tenantId, team, window);
    const pair = this.pairs.get(`${window.from}/${window.to}`);
    if (pair) {
      const { ai: a, other: o } = await pair;
      // Two full lists are the whole window; a sample of each is not a sample of the whole.
      if (!a.sampled && !o.sampled && a.rows.length + o.rows.length <= cap) {
        return { values: await values, rows: [...a.rows, ...o.rows], sampled: false };
      }
    }
    // The cube's n says whether the window is sampled, and how many buckets hold its sample.
    const v = await values;
    return { values: v, ...(await sideRows(pool, tenantId, team, window, null, cap, at(v, P('prs_merged')) ?? 0)) };
  }
}

function valueOf(m: MeasureSpec, values: Row): SideValue {
  const n = at(values, m.n) ?? 0;
  if (m.value !== null) return { value: at(values, m.value), n };
  const successes = at(values, m.successes!) ?? 0;
  return { value: n === 0 ? null : successes / n, n };
}

/** Sorted: the resamples depend on the order of the values, and the rows' order (by id) is arbitrary. */
const perPrValues = (rows: Row[], member: string) => rows.map((r) => at(r, member)).filter((v): v is number => v !== null).sort((x, y) => x - y);

/**
 * Each measure over side a against side b; the bootstrap's seed is the measure's place, so an
 * answer repeats. A median of a sampled side: the cube's difference, with the interval of the
 * samples scaled to the cube's n (sampledMedianDifference).
 */
function compare(a: SideData, b: SideData, cap: number, resamples: Resamples = resample(a, b)): Comparison[] {
  return MEASURES.map((m, i) => {
    const va = valueOf(m, a.values);
    const vb = valueOf(m, b.values);
    const sampled = m.kind === 'median' && (a.sampled || b.sampled);
    const drawn = resamples.get(m.key);
    const difference = m.kind === 'share'
      ? shareDifference(at(a.values, m.successes!) ?? 0, va.n, at(b.values, m.successes!) ?? 0, vb.n)
      : sampled && va.value !== null && vb.value !== null
        ? sampledMedianDifference(drawn!.a, va.n, drawn!.b, vb.n, va.value - vb.value, i + 1, drawn!.drawn)
        : medianDifference(drawn!.a, drawn!.b, i + 1, drawn!.drawn);
    // The cube's n decides "not enough data", as the page shows it (a per-PR list is the same rows).
    const enough = va.n >= MIN_SAMPLE && vb.n >= MIN_SAMPLE;
    return { measure: m, a: va, b: vb, difference: enough ? difference : { status: 'not_enough_data', minimum: MIN_SAMPLE }, intervalSample: sampled ? cap : null };
  });
}

/**
 * The team's adoption month: the first month (of its whole history, to the current month) whose
 * ai_active_users ÷ headcount reaches one half. Headcount is the register's (METRICS.md), which
 * has no history: the same divisor in every month.
 */
async function adoptionMonth(pool: pg.Pool, tenantId: string, team: Team): Promise<{ month: string | null; headcount: number; activeUsers: number }> {
  const now = currentMonth();
  const [heads, months] = await Promise.all([
    cubeLoad(pool, { tenantId }, { measures: ['memberships.register_headcount'], filters: teamFilter('memberships', team) }),
    activeUsersByMonth(pool, tenantId, team, now),
  ]);
  const headcount = num(heads.data[0]?.['memberships.register_headcount']) ?? 0;
  if (headcount === 0) return { month: null, headcount, activeUsers: 0 };
  for (const row of months) {
    const active = num(row['ai_sessions.ai_active_users']) ?? 0;
    if (active / headcount >= ADOPTION_THRESHOLD) return { month: String(row['ai_sessions.started_at.month']).slice(0, 7), headcount, activeUsers: active };
  }
  return { month: null, headcount, activeUsers: 0 };
}

/** The most rows the all-teams read may return before the team's own query is asked instead. */
const ALL_TEAMS_LIMIT = 50_000;

/**
 * The team's ai_active_users per month, in month order. Asked for every team (grouped by
 * `ai_sessions.team_id`, no filter): the shape of the `ai_sessions` rollup (docs/rollups.md), so the
 * stored months answer instead of a scan of every AI session of the tenant; the team's rows are
 * kept. A tenant with more team-months than a query returns is asked for the team alone.
 */
async function activeUsersByMonth(pool: pg.Pool, tenantId: string, team: Team, now: string): Promise<Row[]> {
  const time = { dimension: 'ai_sessions.started_at', granularity: 'month', dateRange: ['2000-01-01', lastDay(now)] };
  const all = await cubeLoad(pool, { tenantId }, { measures: ['ai_sessions.ai_active_users'], dimensions: ['ai_sessions.team_id'], timeDimensions: [time], limit: ALL_TEAMS_LIMIT });
  const rows = all.data.length < ALL_TEAMS_LIMIT
    ? all.data.filter((r) => r['ai_sessions.team_id'] === team.id)
    : (await cubeLoad(pool, { tenantId }, { measures: ['ai_sessions.ai_active_users'], timeDimensions: [time], filters: teamFilter('ai_sessions', team) })).data;
  return rows.sort((a, b) => String(a['ai_sessions.started_at.month']).localeCompare(String(b['ai_sessions.started_at.month'])));
}

/**
 * Equal windows around the adoption month A, each as long as the asked window: after = A and the
 * months following it (cut at the current month), before = as many months ending the month before A.
 */
export function windowsAround(adoption: string, length: number, now = currentMonth()): { before: Window; after: Window } {
  const a = monthIndex(adoption);
  const last = Math.min(a + length - 1, monthIndex(now));
  const months = last - a + 1;
  return { before: { from: monthOf(a - months), to: monthOf(a - 1) }, after: { from: adoption, to: monthOf(last) } };
}

async function beforeAfter(pool: pg.Pool, tenantId: string, team: Team | null, window: Window, sides: Sides, cap: number): Promise<BeforeAfter> {
  if (!team) return { status: 'organisation' };
  const adoption = await adoptionMonth(pool, tenantId, team);
  if (!adoption.month) return { status: 'no_adoption_month', headcount: adoption.headcount };
  const { before, after } = windowsAround(adoption.month, monthIndex(window.to) - monthIndex(window.from) + 1);
  const [b, a] = await Promise.all([sides.get(before), sides.get(after)]);
  return { status: 'ok', adoptionMonth: adoption.month, headcount: adoption.headcount, activeUsers: adoption.activeUsers, before, after, comparisons: compare(a, b, cap) };
}

/** The window of months and the team (null: the organisation) a request asks about. */
async function scopeOf(pool: pg.Pool, tenantId: string, query: { from?: string; to?: string; team?: string }): Promise<{ window: Window; team: Team | null }> {
  return { window: resolveWindow(query), team: query.team === undefined ? null : await requireTeam(pool, tenantId, query.team) };
}

export interface AiImpactLevels {
  team: Team | null;
  window: Window;
  /** Each measure's value and n per attribution level, by measure key. */
  levels: Record<string, Record<Level, SideValue>>;
}

/** Each measure's value and n per AI attribution level over the window (the answer's `levels`, alone). */
export async function aiImpactLevels(pool: pg.Pool, tenantId: string, query: { from?: string; to?: string; team?: string }): Promise<AiImpactLevels> {
  const { window, team } = await scopeOf(pool, tenantId, query);
  const rows = await cubeValues(pool, tenantId, team, window, 'ai_attribution', LEVELS);
  return { team, window, levels: Object.fromEntries(MEASURES.map((m) => [m.key, perLevel(m, rows)])) };
}

const perLevel = (m: MeasureSpec, rows: Row[]) => Object.fromEntries(rows.map((row) => [row.ai_attribution as Level, valueOf(m, row)])) as Record<Level, SideValue>;

/**
 * `intervalSample`: the most PRs of a side a median's interval reads (INTERVAL_SAMPLE; lower in
 * tests). `levels: false` leaves out each measure's per-level values (a second full read of the
 * window; the page asks for them apart, aiImpactLevels).
 */
export async function aiImpact(pool: pg.Pool, tenantId: string, query: { from?: string; to?: string; team?: string }, options: { intervalSample?: number; levels?: boolean } = {}): Promise<AiImpactResult> {
  // A sample under MIN_SAMPLE could never give an interval.
  const cap = Math.max(options.intervalSample ?? INTERVAL_SAMPLE, MIN_SAMPLE);
  const { window, team } = await scopeOf(pool, tenantId, query);
  const sides = new Sides(pool, tenantId, team, cap);
  // The two sides are asked first, so a before/after window equal to this one finds them.
  const both = sides.both(window);
  const [{ ai, other, resamples }, levels, around] = await Promise.all([
    both,
    options.levels === false ? null : cubeValues(pool, tenantId, team, window, 'ai_attribution', LEVELS),
    beforeAfter(pool, tenantId, team, window, sides, cap),
  ]);
  const comparisons = compare(ai, other, cap, resamples).map((c) => (levels ? { ...c, levels: perLevel(c.measure, levels) } : c));
  return { team, window, split: AI_SPLIT, comparisons, beforeAfter: around, intervalSample: cap };
}
