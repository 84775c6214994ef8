/** A point's figures from its commits' records: what landed, what failed and why, attempts, latency, waste. */
import type { SweepFailure, SweepPoint } from '@racelab/contracts';
import { nearestRank, quantilesOf } from '@racelab/engine';
import type { SweepCommitRecord } from './job';

/** Failures by exact message, most frequent first (then by message, so the order is stable). */
export function failuresOf(records: readonly SweepCommitRecord[]): SweepFailure[] {
  const counts = new Map<string, number>();
  for (const r of records) if (!r.acknowledged && r.error !== null) counts.set(r.error, (counts.get(r.error) ?? 0) + 1);
  return [...counts]
    .map(([message, count]) => ({ message, count }))
    .sort((a, b) => b.count - a.count || (a.message < b.message ? -1 : 1));
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** The point's figures the writers' records give (the table checks are checks.ts's). */
export function pointFigures(
  writers: number,
  records: readonly SweepCommitRecord[],
  intended: number,
  durationMs: number,
): Omit<SweepPoint, 'checks' | 'wasted' | 'compactor'> & { wasted: { bytes: number; files: number } } {
  const acked = records.filter((r) => r.acknowledged);
  const total = records.reduce((s, r) => s + r.attempts, 0);
  const histogram = new Map<number, number>();
  for (const r of acked) histogram.set(r.attempts, (histogram.get(r.attempts) ?? 0) + 1);
  const latencies = acked.map((r) => r.endedAt - r.startedAt).sort((a, b) => a - b);
  return {
    writers,
    durationMs,
    commits: { acknowledged: acked.length, failed: records.length - acked.length, intended },
    failures: failuresOf(records),
    attempts: {
      total,
      successPerAttempt: total === 0 ? 0 : round(acked.length / total, 6),
      histogram: [...histogram].sort((a, b) => a[0] - b[0]).map(([attempts, commits]) => ({ attempts, commits })),
    },
    commitsPerSec: durationMs > 0 ? round(acked.length / (durationMs / 1000)) : 0,
    latencyMs: {
      p50: nearestRank(latencies, 0.5),
      p99: nearestRank(latencies, 0.99),
      mean: latencies.length ? round(latencies.reduce((a, b) => a + b, 0) / latencies.length) : 0,
    },
    wasted: {
      bytes: records.reduce((s, r) => s + r.wastedBytes, 0),
      files: records.reduce((s, r) => s + r.wastedFiles, 0),
    },
    measured: {
      attemptMs: quantilesOf(records.flatMap((r) => r.attemptMs)),
      prepareMs: quantilesOf(records.flatMap((r) => r.prepareMs)),
      appPauseMs: quantilesOf(records.flatMap((r) => r.pauseMs)),
    },
  };
}

/** The compactor's own figures (compaction only). */
export function compactorFigures(records: readonly SweepCommitRecord[]): NonNullable<SweepPoint['compactor']> {
  const acknowledged = records.filter((r) => r.acknowledged).length;
  const attempts = records.reduce((s, r) => s + r.attempts, 0);
  return {
    acknowledged,
    attempts,
    successPerAttempt: attempts === 0 ? 0 : round(acknowledged / attempts, 6),
    failures: failuresOf(records),
  };
}
