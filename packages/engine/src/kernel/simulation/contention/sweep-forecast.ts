/**
 * A sweep's forecast: the contention model (model.ts, loop.ts) run at every N from 1 to the sweep's largest, fed with
 * the latencies the sweep measured, and its error against the measured points.
 *
 * Local tables: a writer's steps are CPU work, and N processes share the machine's cores. The model then shares
 * the cores among the runnable steps itself, as Linux's scheduler does (each of R runnable steps advances at
 * min(1, cores / R), preempted anywhere, also between its listing and its claim), fed with the latencies of the
 * sweep's smallest N, the closest to a step's own time: the latencies measured at a large N already hold the wait
 * for a core, and feeding them to a model that shares the cores would count that wait twice. Only the end of a
 * local attempt lies between its listing and its claim (LOCAL_CLAIM_SHARE). What those latencies still say is
 * how much processor the writers got (a machine shared with other work gives them less than its cores): N
 * writers each taking t(N) where one takes t(1) had N·t(1)/t(N) processors between them, so each step is
 * stretched by the running slots over that share (never shrunk), which leaves success per attempt as it was and
 * gives commits/s what the machine served. Object-store tables: the steps are I/O, every writer runs at
 * once, and the latencies at N are that point's own, interpolated in log N between measured points for the N in
 * between (an attempt at N = 16 on a shared store is slower than at N = 2).
 * Structural types only: the sweep's contract (@racelab/contracts) depends on this package, not the reverse.
 */
import { DEFAULT_MAX_RETRIES } from '../../retry/policy';
import type { Quantiles } from '../../statistics/quantiles';
import { type ContentionForecast, forecastCompaction, forecastContention } from './contention-forecast';
import { type ForecastHold, forecastHold } from './forecast-bounds';
import type { ContentionPolicy } from './model';

/**
 * The share of a local attempt's measured time that lies between its listing and its claim. A local attempt is
 * mostly work before the listing (serialising the commit, staging it in a temporary file) and after the claim;
 * the window is one lookup that finds the next version missing and the link that claims it. Nothing in a sweep's
 * figures measures it, so it is fitted: 0.05 minimises the success-per-attempt error of the measured local
 * append-row delta-rs sweep (2 cores, N = 1..64; 0.04-0.06 do about as well, 0.1 and 0.02 clearly worse).
 * Object stores keep the whole attempt as the window: there the listing and the claim are each a round trip.
 */
export const LOCAL_CLAIM_SHARE = 0.05;

export interface SweepForecastInput {
  /** Where the tables lived; 'local' (the default) queues the writers' steps for the machine's cores. */
  store?: 'local' | 's3';
  /**
   * Local tables: the share of an attempt between its read of the table's head and its claim, when the table
   * format's attempt is not Delta's (LOCAL_CLAIM_SHARE). An Iceberg attempt reads the head, stages its manifests
   * and metadata and then swaps: all of it is the window (1).
   */
  claimShare?: number;
  machine?: { cores: number };
  input: {
    writers: number[];
    commitsPerWriter: number;
    operation: string;
    appendRatePerSec?: number;
    policy: ContentionPolicy;
    seed: number;
  };
  points: {
    writers: number;
    /** `total`: the attempts made (the Wilson interval's trials); without it any success per attempt holds. */
    attempts: { successPerAttempt: number; total?: number };
    commitsPerSec: number;
    compactor?: { successPerAttempt: number; attempts?: number };
    measured: { attemptMs: Quantiles; prepareMs: Quantiles };
  }[];
}

export interface ForecastPoint {
  writers: number;
  successPerAttempt: number;
  exhaustion: number;
  commitsPerSec: number;
}

export interface SweepForecast {
  model: 'commit-loop-simulation';
  curve: ForecastPoint[];
  atPoints: ForecastPoint[];
  error: { successPerAttemptMeanAbs: number; commitsPerSecMeanRel: number };
  /**
   * Where the model took the load it runs under from: 'step-times', the run's own measured step times (how much
   * processor N writers got, or an object store's latencies at N).
   */
  loadSource: 'step-times';
  /** Each measured point against its bounds (forecast-bounds.ts), in the points' order. */
  holds: ForecastHold[];
}

type Measured = SweepForecastInput['points'][number]['measured'];

const KEYS = ['p10', 'p50', 'p90', 'p99'] as const;
const measuredSomething = (m: Measured) => m.attemptMs.p50 > 0 || m.attemptMs.p99 > 0;

function mix(a: Quantiles, b: Quantiles, t: number): Quantiles {
  const out = { p10: 0, p50: 0, p90: 0, p99: 0 };
  for (const k of KEYS) out[k] = a[k] + (b[k] - a[k]) * t;
  return out;
}

/** The measured latencies at `n`: a measured point's own, else interpolated in log N, else the nearest end's. */
export function latenciesAt(points: SweepForecastInput['points'], n: number): Measured {
  const known = points.filter((p) => measuredSomething(p.measured)).sort((a, b) => a.writers - b.writers);
  const zero = { p10: 0, p50: 0, p90: 0, p99: 0 };
  const first = known[0];
  const last = known[known.length - 1];
  if (!first || !last) return { attemptMs: zero, prepareMs: zero };
  if (n <= first.writers) return first.measured;
  if (n >= last.writers) return last.measured;
  const hi = known.findIndex((p) => p.writers >= n);
  const [a, b] = [known[hi - 1] as (typeof known)[number], known[hi] as (typeof known)[number]];
  if (b.writers === n) return b.measured;
  const t = (Math.log(n) - Math.log(a.writers)) / (Math.log(b.writers) - Math.log(a.writers));
  return {
    attemptMs: mix(a.measured.attemptMs, b.measured.attemptMs, t),
    prepareMs: mix(a.measured.prepareMs, b.measured.prepareMs, t),
  };
}

/** Which operations' commits refuse each other: only updates of the same rows (appends and updates of disjoint partitions never conflict). */
const conflictsFor = (operation: string) => (operation === 'update-overlap' ? () => true : undefined);

/**
 * How the model runs a sweep's writers at N: the processors they share (none: all at once), the scheduler's slice
 * on them, and their latencies.
 */
function machineOf(sweep: SweepForecastInput, n: number): { cpus?: number; claimShare?: number; latencies: Measured } {
  if (sweep.store === 's3') return { latencies: latenciesAt(sweep.points, n) };
  const cpus = Math.max(1, sweep.machine?.cores ?? 1);
  const smallest = Math.min(...sweep.points.map((p) => p.writers));
  const own = latenciesAt(sweep.points, smallest);
  const step = (m: Measured) => m.attemptMs.p50 + m.prepareMs.p50;
  const share = (n * step(own)) / (smallest * Math.max(step(latenciesAt(sweep.points, n)), Number.EPSILON));
  const stretch = Math.max(1, Math.min(n, cpus) / Math.min(share, Math.min(n, cpus)));
  return {
    cpus,
    claimShare: sweep.claimShare ?? LOCAL_CLAIM_SHARE,
    latencies: { attemptMs: scaled(own.attemptMs, stretch), prepareMs: scaled(own.prepareMs, stretch) },
  };
}

const scaled = (q: Quantiles, by: number): Quantiles => ({
  p10: q.p10 * by,
  p50: q.p50 * by,
  p90: q.p90 * by,
  p99: q.p99 * by,
});

/**
 * The model run at N writers: each group's figures, the operation's own first (for compaction the compactor, then
 * its N appenders, each K commits paced at the append rate, as the sweep runs them).
 */
export function simulatePoint(sweep: SweepForecastInput, n: number): ContentionForecast[] {
  const { input } = sweep;
  const machine = machineOf(sweep, n);
  const m = machine.latencies;
  const cpus = {
    ...(machine.cpus === undefined ? {} : { cpus: machine.cpus }),
    ...(machine.claimShare === undefined ? {} : { claimShare: machine.claimShare }),
  };
  const seed = (input.seed + n * 7919) >>> 0;
  if (input.operation === 'compaction') {
    const rate = input.appendRatePerSec ?? 1;
    const c = forecastCompaction({
      appenders: n,
      appendRatePerSec: rate,
      appenderCommits: input.commitsPerWriter,
      compactions: input.commitsPerWriter,
      compactorRatePerSec: rate,
      ...cpus,
      compactorPolicy: { ...input.policy, maxCommitRetries: DEFAULT_MAX_RETRIES },
      appenderPolicy: input.policy,
      attemptMs: m.attemptMs,
      prepareMs: m.prepareMs,
      seed,
    });
    return [c.compactor, c.appenders];
  }
  const conflicts = conflictsFor(input.operation);
  return [
    forecastContention({
      writers: n,
      commitsPerWriter: input.commitsPerWriter,
      policy: input.policy,
      attemptMs: m.attemptMs,
      prepareMs: m.prepareMs,
      seed,
      ...cpus,
      ...(conflicts ? { conflicts } : {}),
    }),
  ];
}

/** The model at N writers, in figures; commits/s is the appenders' for compaction (as measured). */
export function forecastPoint(sweep: SweepForecastInput, n: number): ForecastPoint {
  const groups = simulatePoint(sweep, n);
  const own = groups[0] as ContentionForecast;
  return figures(n, own, (groups.at(-1) as ContentionForecast).commitsPerSec);
}

const figures = (writers: number, f: ContentionForecast, commitsPerSec: number): ForecastPoint => ({
  writers,
  successPerAttempt: f.successPerAttempt,
  exhaustion: f.exhaustion,
  commitsPerSec,
});

/**
 * The forecast for a sweep's results (their `forecast` not yet set): the curve for N = 1..max(writers), the model
 * at each measured point, and the mean errors against those points. For a compaction sweep the success per
 * attempt and exhaustion are the compactor's (that operation's curve), commits/s the appenders' (as measured).
 */
export function forecastSweep(sweep: SweepForecastInput): SweepForecast {
  const max = Math.max(0, ...sweep.input.writers, ...sweep.points.map((p) => p.writers));
  const curve = Array.from({ length: max }, (_, i) => forecastPoint(sweep, i + 1));
  const atPoints = sweep.points.map((p) => curve[p.writers - 1] ?? forecastPoint(sweep, p.writers));
  const holds = sweep.points.map((p, i) => {
    const f = atPoints[i] as ForecastPoint;
    const compaction = sweep.input.operation === 'compaction';
    const tried = compaction
      ? { successPerAttempt: p.compactor?.successPerAttempt ?? 0, attempts: p.compactor?.attempts ?? 0 }
      : { successPerAttempt: p.attempts.successPerAttempt, attempts: p.attempts.total ?? 0 };
    return forecastHold(p.writers, f, { ...tried, commitsPerSec: p.commitsPerSec });
  });
  const abs = holds
    .filter((_h, i) => sweep.input.operation !== 'compaction' || sweep.points[i]?.compactor !== undefined)
    .map((h) => Math.abs(h.successPerAttempt.forecast - h.successPerAttempt.measured));
  const rel = holds.filter((h) => h.commitsPerSec.measured > 0).map((h) => Math.abs(h.commitsPerSec.relError));
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);
  return {
    model: 'commit-loop-simulation',
    curve,
    atPoints,
    error: { successPerAttemptMeanAbs: mean(abs), commitsPerSecMeanRel: mean(rel) },
    loadSource: 'step-times',
    holds,
  };
}
