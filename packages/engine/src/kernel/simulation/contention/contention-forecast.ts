/**
 * The contention forecasts: the simulation (loop.ts) set up for the two questions asked of it, N identical
 * writers released at once (one sweep point), and one compactor against N appenders, each answered in figures:
 * success per attempt, exhaustion, commits per second, attempts per commit and the failures.
 */
import type { Quantiles } from '../../statistics/quantiles';
import { simulateContention } from './loop';
import type { CommitPath, ContentionPolicy, GroupOutcome } from './model';

export interface ContentionInput {
  writers: number;
  commitsPerWriter: number;
  policy: ContentionPolicy;
  attemptMs: Quantiles;
  prepareMs: Quantiles;
  /** Per writer; absent = each writer commits again as soon as its last commit ended. */
  arrivalPerSec?: number;
  seed: number;
  /** Whether writer `loser`'s change is refused by writer `winner`'s landed commit; default never (appends). */
  conflicts?: (winner: number, loser: number) => boolean;
  /** Processors the writers' steps share (ContentionModel.cpus); absent: all at once. */
  cpus?: number;
  /** The share of an attempt between its listing and its claim (ContentionModel.claimShare); default 1. */
  claimShare?: number;
}

export interface ContentionForecast {
  /** Acknowledged commits / attempts. */
  successPerAttempt: number;
  /** The share of commits that fail after all library and app retries. */
  exhaustion: number;
  commitsPerSec: number;
  attemptsHistogram: { attempts: number; commits: number }[];
  failures: { message: string; count: number }[];
  /** Every commit, landed or failed, by its attempts and application tries (fewest attempts first). */
  commitPaths: CommitPath[];
  durationMs: number;
}

/** The figures of one group of a simulation. */
export function figuresOf(g: GroupOutcome, durationMs: number): ContentionForecast {
  return {
    successPerAttempt: g.attempts === 0 ? 0 : g.acknowledged / g.attempts,
    exhaustion: g.intended === 0 ? 0 : g.failed / g.intended,
    commitsPerSec: durationMs > 0 ? g.acknowledged / (durationMs / 1000) : 0,
    attemptsHistogram: g.histogram,
    failures: g.failures,
    commitPaths: g.paths,
    durationMs,
  };
}

/** N identical writers released at once, each making its commits: one sweep point, forecast. */
export function forecastContention(input: ContentionInput): ContentionForecast {
  const out = simulateContention({
    groups: [
      {
        count: input.writers,
        commits: input.commitsPerWriter,
        policy: input.policy,
        attemptMs: input.attemptMs,
        prepareMs: input.prepareMs,
        ...(input.arrivalPerSec === undefined ? {} : { arrivalPerSec: input.arrivalPerSec }),
      },
    ],
    seed: input.seed,
    ...(input.conflicts ? { conflicts: input.conflicts } : {}),
    ...(input.cpus === undefined ? {} : { cpus: input.cpus }),
    ...(input.claimShare === undefined ? {} : { claimShare: input.claimShare }),
  });
  return figuresOf(out.groups[0] as GroupOutcome, out.durationMs);
}

export interface CompactionInput {
  /** Append writers, each at `appendRatePerSec`. */
  appenders: number;
  appendRatePerSec: number;
  /** Each appender's commits; 'background' (the default): for as long as the compactor runs. */
  appenderCommits?: number | 'background';
  /** The compactor's optimize commits, one after another. */
  compactions: number;
  /** Paced like this; back to back when absent. */
  compactorRatePerSec?: number;
  /** The compactor's policy (the engine's OPTIMIZE always commits with delta-rs's default 15 library retries). */
  compactorPolicy: ContentionPolicy;
  appenderPolicy: ContentionPolicy;
  attemptMs: Quantiles;
  prepareMs: Quantiles;
  /** The compactor's own preparation (read + rewrite); the appenders' when absent. */
  compactorPrepareMs?: Quantiles;
  arrival?: 'paced' | 'poisson';
  seed: number;
  cpus?: number;
  claimShare?: number;
}

export interface CompactionForecast {
  compactor: ContentionForecast;
  appenders: ContentionForecast;
  /** Whether the compactor landed at least one of its commits within its retries, in this simulation. */
  everLands: boolean;
}

/**
 * One compactor against N appenders. Appends are blind and a compaction's removes are dataChange=false, so
 * neither refuses the other under delta-rs's checker: the compactor loses only claims, each time an append
 * lands inside its attempt's window.
 */
export function forecastCompaction(input: CompactionInput): CompactionForecast {
  const out = simulateContention({
    groups: [
      {
        count: 1,
        commits: input.compactions,
        policy: input.compactorPolicy,
        attemptMs: input.attemptMs,
        prepareMs: input.compactorPrepareMs ?? input.prepareMs,
        ...(input.compactorRatePerSec === undefined ? {} : { arrivalPerSec: input.compactorRatePerSec }),
      },
      {
        count: input.appenders,
        commits: input.appenderCommits ?? 'background',
        policy: input.appenderPolicy,
        attemptMs: input.attemptMs,
        prepareMs: input.prepareMs,
        arrivalPerSec: input.appendRatePerSec,
        arrival: input.arrival ?? 'paced',
      },
    ],
    seed: input.seed,
    ...(input.cpus === undefined ? {} : { cpus: input.cpus }),
    ...(input.claimShare === undefined ? {} : { claimShare: input.claimShare }),
  });
  const compactor = figuresOf(out.groups[0] as GroupOutcome, out.durationMs);
  return {
    compactor,
    appenders: figuresOf(out.groups[1] as GroupOutcome, out.durationMs),
    everLands: (out.groups[0] as GroupOutcome).acknowledged > 0,
  };
}
