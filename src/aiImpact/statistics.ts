/**
 * The statistics of "AI against not" (METRICS.md): a difference of medians with a bootstrap
 * interval, a difference of shares with a normal interval, and the minimum sample under which the
 * product says "not enough data" rather than a difference. The values compared are the cube's own
 * (per-PR rows read through the cube); only the interval is computed here.
 */

/** Fewer PRs than this on either side: no difference is given. */
export const MIN_SAMPLE = 20;
/** Resamples of a bootstrap interval: enough for a stable 5th/95th percentile at n ≥ 20. */
export const RESAMPLES = 2000;
/** The interval's coverage: 90 %. */
export const LEVEL = 0.9;
/** z for a two-sided 90 % normal interval. */
const Z90 = 1.6448536269514722;

export interface Interval {
  low: number;
  high: number;
}

export type Difference =
  | { status: 'ok'; difference: number; interval: Interval }
  | { status: 'not_enough_data'; minimum: number };

/** The p-quantile of sorted values, interpolated as PostgreSQL's percentile_cont. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

export function median(values: readonly number[]): number {
  return quantileSorted([...values].sort((a, b) => a - b), 0.5);
}

/**
 * A seeded generator (mulberry32): the same data gives the same interval on every request and
 * instance, so a page, its CSV and MCP agree.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `values` in ascending order: itself when it already is (the service's per-PR values are), else a sorted copy. */
function ascending(values: readonly number[]): readonly number[] {
  for (let i = 1; i < values.length; i += 1) if (values[i]! < values[i - 1]!) return [...values].sort((x, y) => x - y);
  return values;
}

/**
 * The median of a resample of `sorted` (ascending), as quantileSorted(sorted resample, 0.5) gives
 * it, from how often each position was drawn rather than from the drawn values: in a sorted array
 * the resample's k-th smallest value is the value at its k-th smallest drawn position, so counting
 * the draws by position and walking the counts finds the median in one pass, with no selection or
 * sort of the resample (the same draws, so the same number; the organisation's six intervals of
 * 2 × 2,000 PRs went from about 1.3 s to a third of that).
 */
function resampledMedian(sorted: readonly number[], random: () => number, counts: Uint32Array): number {
  const n = sorted.length;
  counts.fill(0);
  for (let i = 0; i < n; i += 1) counts[Math.floor(random() * n)]! += 1;
  const at = (n - 1) * 0.5;
  const below = Math.floor(at);
  // The position holding the resample's `below`-th smallest (0-based): the first whose running count passes it.
  let seen = 0;
  let position = 0;
  while (seen + counts[position]! <= below) {
    seen += counts[position]!;
    position += 1;
  }
  const low = sorted[position]!;
  if (below === at) return low;
  // The next smallest: the same position when it was drawn again, else the next position drawn.
  let next = position;
  if (seen + counts[position]! <= below + 1) {
    next += 1;
    while (counts[next] === 0) next += 1;
  }
  const high = sorted[next]!;
  return low + (high - low) * (at - below);
}

/**
 * The costly part of a bootstrap of a difference of medians: RESAMPLES medians of resamples of
 * each side, drawn in turn from one seeded sequence. It needs only the per-PR values, so the
 * service draws them as soon as a window's rows are in, while the database still computes the
 * window's values (docs/ai-impact.md "Queries"); the interval is then a cheap pass over them.
 * Null when either side has fewer than MIN_SAMPLE values.
 */
export interface ResampledMedians {
  medianA: number;
  medianB: number;
  a: Float64Array;
  b: Float64Array;
}

export function resampleMedians(a: readonly number[], b: readonly number[], seed = 1): ResampledMedians | null {
  if (a.length < MIN_SAMPLE || b.length < MIN_SAMPLE) return null;
  const random = seededRandom(seed);
  const [sortedA, sortedB] = [ascending(a), ascending(b)];
  const countsA = new Uint32Array(a.length);
  const countsB = new Uint32Array(b.length);
  const drawnA = new Float64Array(RESAMPLES);
  const drawnB = new Float64Array(RESAMPLES);
  for (let i = 0; i < RESAMPLES; i += 1) {
    drawnA[i] = resampledMedian(sortedA, random, countsA);
    drawnB[i] = resampledMedian(sortedB, random, countsB);
  }
  return { medianA: quantileSorted(sortedA, 0.5), medianB: quantileSorted(sortedB, 0.5), a: drawnA, b: drawnB };
}

const NOT_ENOUGH: Difference = { status: 'not_enough_data', minimum: MIN_SAMPLE };

/** The 90 % percentile interval of `differences` (sorted in place). */
function percentileInterval(differences: number[]): Interval {
  differences.sort((x, y) => x - y);
  const tail = (1 - LEVEL) / 2;
  return { low: quantileSorted(differences, tail), high: quantileSorted(differences, 1 - tail) };
}

/**
 * median(a) − median(b) with its percentile-bootstrap interval (each side resampled on its own),
 * or "not enough data" when either side has fewer than MIN_SAMPLE values. `drawn`: the sides'
 * resampled medians when already drawn (resampleMedians with the same values and seed).
 */
export function medianDifference(a: readonly number[], b: readonly number[], seed = 1, drawn = resampleMedians(a, b, seed)): Difference {
  if (drawn === null) return NOT_ENOUGH;
  const differences = new Array<number>(RESAMPLES);
  for (let i = 0; i < RESAMPLES; i += 1) differences[i] = drawn.a[i]! - drawn.b[i]!;
  return { status: 'ok', difference: drawn.medianA - drawn.medianB, interval: percentileInterval(differences) };
}

/**
 * The interval of a difference of medians when a side's values are a random sample of its PRs
 * (more PRs than the sample cap, docs/ai-impact.md "Large windows"): each side is bootstrapped on
 * its sample, and each resampled median's distance from the sample's median is scaled by
 * √(sample ÷ n), since a median's standard error falls as 1/√n; the interval is then centred on
 * `difference`, the cube's (the medians over every PR). A side whose sample is all its PRs has a
 * scale of 1. Fewer than MIN_SAMPLE values in a side's sample: not enough data.
 */
export function sampledMedianDifference(a: readonly number[], nA: number, b: readonly number[], nB: number, difference: number, seed = 1, drawn = resampleMedians(a, b, seed)): Difference {
  if (drawn === null) return NOT_ENOUGH;
  const scaleA = Math.sqrt(a.length / Math.max(nA, a.length));
  const scaleB = Math.sqrt(b.length / Math.max(nB, b.length));
  const differences = new Array<number>(RESAMPLES);
  for (let i = 0; i < RESAMPLES; i += 1) differences[i] = difference + scaleA * (drawn.a[i]! - drawn.medianA) - scaleB * (drawn.b[i]! - drawn.medianB);
  return { status: 'ok', difference, interval: percentileInterval(differences) };
}

/** share(a) − share(b) (successes ÷ n) with a normal (Wald) 90 % interval. */
export function shareDifference(successesA: number, nA: number, successesB: number, nB: number): Difference {
  if (nA < MIN_SAMPLE || nB < MIN_SAMPLE) return { status: 'not_enough_data', minimum: MIN_SAMPLE };
  const pA = successesA / nA;
  const pB = successesB / nB;
  const spread = Z90 * Math.sqrt((pA * (1 - pA)) / nA + (pB * (1 - pB)) / nB);
  const difference = pA - pB;
  return { status: 'ok', difference, interval: { low: difference - spread, high: difference + spread } };
}
