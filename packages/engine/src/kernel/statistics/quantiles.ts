/**
 * Quantiles of measured values, both ways. By nearest rank (the value at rank ceil(q·n), never an interpolation):
 * what the store probe reports of its calls and what a sweep reports of its attempts. And back to values: a
 * sampler that draws latencies through given quantiles, which is how the contention model is fed.
 */

/** Latency quantiles in ms, as the sweep measures them. */
export interface Quantiles {
  p10: number;
  p50: number;
  p90: number;
  p99: number;
}

/** The q-quantile (0..1) of values already sorted ascending; 0 for none. */
export function nearestRank(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] as number;
}

/** p10, p50, p90 and p99 of `values` (in any order). */
export function quantilesOf(values: readonly number[]): Quantiles {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p10: nearestRank(sorted, 0.1),
    p50: nearestRank(sorted, 0.5),
    p90: nearestRank(sorted, 0.9),
    p99: nearestRank(sorted, 0.99),
  };
}

/**
 * The inverse CDF through the quantiles, piecewise linear; below p10 and above p99 the neighbouring segment's
 * slope is carried on to probability 0 and 1 (never below 0 ms).
 */
export function quantileSampler(q: Quantiles): (u: number) => number {
  const p10 = Math.max(0, q.p10);
  const p50 = Math.max(p10, q.p50);
  const p90 = Math.max(p50, q.p90);
  const p99 = Math.max(p90, q.p99);
  const xs = [0, 0.1, 0.5, 0.9, 0.99, 1];
  const ys = [Math.max(0, p10 - (p50 - p10) / 4), p10, p50, p90, p99, p99 + (p99 - p90) / 9];
  return (u) => {
    let i = 1;
    while (i < xs.length - 1 && u > (xs[i] as number)) i++;
    const [x0, x1, y0, y1] = [xs[i - 1] as number, xs[i] as number, ys[i - 1] as number, ys[i] as number];
    return y0 + ((y1 - y0) * (u - x0)) / (x1 - x0);
  };
}
