/**
 * The figures a history is summed up by, named plainly so scripts can read them: commits, writers, concurrent
 * commits (recorded and inferred), the inferred ones, the unknown ones, the longest concurrent chain, commits per
 * hour and the busiest hour.
 */
import type { BusiestHour, HistoryCommit, HistorySummary, HistoryWriter } from './types';

const HOUR = 3_600_000;

/** One writer as the timeline draws a lane: library, version and app id. */
export const writerKey = (w: HistoryWriter): string => `${w.library ?? '?'}|${w.version ?? '?'}|${w.appId ?? ''}`;

export function summarize(commits: readonly HistoryCommit[], duplicateKeys: number | null): HistorySummary {
  const concurrent = commits.filter((c) => c.concurrentWith.length > 0);
  const stamps = commits.map((c) => c.timestamp).filter((t): t is number => t !== null);
  const first = stamps.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  const last = stamps.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  return {
    commits: commits.length,
    writers: new Set(commits.map((c) => writerKey(c.writer))).size,
    concurrentCommits: concurrent.length,
    inferredConcurrentCommits: concurrent.filter((c) => c.evidence === 'inferred').length,
    unknownConcurrency: commits.filter((c) => c.evidence === 'unknown').length,
    longestConcurrentChain: longestChain(commits),
    commitsPerHour: stamps.length >= 2 && last > first ? (stamps.length * HOUR) / (last - first) : null,
    busiestHour: busiestHour(commits),
    duplicateKeys,
  };
}

/** The most consecutive versions each concurrent with the one before it. */
function longestChain(commits: readonly HistoryCommit[]): number {
  let best = commits.length > 0 ? 1 : 0;
  let run = 1;
  for (let i = 1; i < commits.length; i++) {
    const c = commits[i] as HistoryCommit;
    const prev = commits[i - 1] as HistoryCommit;
    run = prev.version === c.version - 1 && c.concurrentWith.includes(prev.version) ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}

/** The UTC hour with the most concurrent commits (the most commits on a tie, then the earliest). */
function busiestHour(commits: readonly HistoryCommit[]): BusiestHour | null {
  const hours = new Map<number, { commits: number; concurrentCommits: number }>();
  for (const c of commits) {
    if (c.timestamp === null) continue;
    const hour = Math.floor(c.timestamp / HOUR) * HOUR;
    const h = hours.get(hour) ?? { commits: 0, concurrentCommits: 0 };
    h.commits++;
    if (c.concurrentWith.length > 0) h.concurrentCommits++;
    hours.set(hour, h);
  }
  let best: BusiestHour | null = null;
  for (const [hour, h] of [...hours].sort((a, b) => a[0] - b[0])) {
    if (
      best === null ||
      h.concurrentCommits > best.concurrentCommits ||
      (h.concurrentCommits === best.concurrentCommits && h.commits > best.commits)
    ) {
      best = { start: new Date(hour).toISOString(), ...h };
    }
  }
  return best;
}
