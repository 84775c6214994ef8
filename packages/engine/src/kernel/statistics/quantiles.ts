/**
 * Quantiles of measured values by nearest rank (the value at rank ceil(q·n), never an interpolation): what the
 * store probe reports of its calls and what a sweep reports of its attempts, and what the contention model is fed.
 */
import type { Quantiles } from '../simulation/contention';

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
