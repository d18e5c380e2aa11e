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

function resampledMedian(values: readonly number[], random: () => number, scratch: number[]): number {
  for (let i = 0; i < values.length; i += 1) scratch[i] = values[Math.floor(random() * values.length)]!;
  scratch.sort((a, b) => a - b);
  return quantileSorted(scratch, 0.5);
}

/**
 * median(a) − median(b) with its percentile-bootstrap interval (each side resampled on its own),
 * or "not enough data" when either side has fewer than MIN_SAMPLE values.
 */
export function medianDifference(a: readonly number[], b: readonly number[], seed = 1): Difference {
  if (a.length < MIN_SAMPLE || b.length < MIN_SAMPLE) return { status: 'not_enough_data', minimum: MIN_SAMPLE };
  const random = seededRandom(seed);
  const scratchA = new Array<number>(a.length);
  const scratchB = new Array<number>(b.length);
  const differences = new Array<number>(RESAMPLES);
  for (let i = 0; i < RESAMPLES; i += 1) differences[i] = resampledMedian(a, random, scratchA) - resampledMedian(b, random, scratchB);
  differences.sort((x, y) => x - y);
  const tail = (1 - LEVEL) / 2;
  return {
    status: 'ok',
    difference: median(a) - median(b),
    interval: { low: quantileSorted(differences, tail), high: quantileSorted(differences, 1 - tail) },
  };
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
