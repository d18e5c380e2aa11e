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

/** The k-th smallest of values[0..n) (0-based), values partly reordered: Hoare's selection, O(n) on average. */
function select(values: number[], k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i += 1;
      while (values[j]! > pivot) j -= 1;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

/**
 * The median of a resample, as quantileSorted(sorted resample, 0.5) gives it, by selection rather
 * than a sort: the same number, and the bootstrap of a side of 2,000 values six times cheaper.
 */
function resampledMedian(values: readonly number[], random: () => number, scratch: number[]): number {
  for (let i = 0; i < values.length; i += 1) scratch[i] = values[Math.floor(random() * values.length)]!;
  const at = (scratch.length - 1) * 0.5;
  const below = Math.floor(at);
  const low = select(scratch, below);
  if (below === at) return low;
  // Odd count's complement: after selecting `below`, everything past it is at least as large.
  let high = scratch[below + 1]!;
  for (let i = below + 2; i < scratch.length; i += 1) if (scratch[i]! < high) high = scratch[i]!;
  return low + (high - low) * (at - below);
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

/**
 * The interval of a difference of medians when a side's values are a random sample of its PRs
 * (more PRs than the sample cap, docs/ai-impact.md "Large windows"): each side is bootstrapped on
 * its sample, and each resampled median's distance from the sample's median is scaled by
 * √(sample ÷ n), since a median's standard error falls as 1/√n; the interval is then centred on
 * `difference`, the cube's (the medians over every PR). A side whose sample is all its PRs has a
 * scale of 1. Fewer than MIN_SAMPLE values in a side's sample: not enough data.
 */
export function sampledMedianDifference(a: readonly number[], nA: number, b: readonly number[], nB: number, difference: number, seed = 1): Difference {
  if (a.length < MIN_SAMPLE || b.length < MIN_SAMPLE) return { status: 'not_enough_data', minimum: MIN_SAMPLE };
  const scaleA = Math.sqrt(a.length / Math.max(nA, a.length));
  const scaleB = Math.sqrt(b.length / Math.max(nB, b.length));
  const medianA = median(a);
  const medianB = median(b);
  const random = seededRandom(seed);
  const scratchA = new Array<number>(a.length);
  const scratchB = new Array<number>(b.length);
  const differences = new Array<number>(RESAMPLES);
  for (let i = 0; i < RESAMPLES; i += 1) {
    differences[i] = difference + scaleA * (resampledMedian(a, random, scratchA) - medianA) - scaleB * (resampledMedian(b, random, scratchB) - medianB);
  }
  differences.sort((x, y) => x - y);
  const tail = (1 - LEVEL) / 2;
  return { status: 'ok', difference, interval: { low: quantileSorted(differences, tail), high: quantileSorted(differences, 1 - tail) } };
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
