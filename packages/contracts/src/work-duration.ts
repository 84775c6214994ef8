/**
 * How long a sweep or a race would take, estimated before it is accepted, so that no request costs days: the API's
 * startSweep and startRace refuse an estimate above the limit (LAB_MAX_WORK_MINUTES, 30 by default) and the CLI
 * prints it before it starts. The estimate is the courtesy; the worker's deadline at the same limit the guarantee.
 *
 * A sweep's estimate is built from what the product knows for certain plus the forecast: at each point, the
 * contention model (the engine's simulatePoint, fed with step times measured on that store) gives every commit's
 * attempts and application tries; along the 99th-percentile commit's path, each writer's K commits cost those
 * attempts and tries at the measured step times (on a local table, stretched by the writers sharing the cores),
 * plus the backoff pauses the policy imposes before each of those tries (each at its jitter's mean), plus the
 * append rate's gaps (compaction paces every writer's commits), plus each point's writer processes started and its
 * table checked. The points run one after another. Pure and browser-safe, seeded: the same input gives the same
 * estimate.
 */
import { type ContentionForecast, type Quantiles, simulatePoint } from '@racelab/engine/conflict';
import type { SweepInput } from './sweep-input';
import { plural } from './words';

export const DEFAULT_MAX_WORK_MINUTES = 30;
/** The most a limit may be set to: a week (beyond it a request costs days, which the limit is there to refuse). */
export const MAX_WORK_LIMIT_MINUTES = 7 * 24 * 60;

/**
 * A work limit as typed (LAB_MAX_WORK_MINUTES, the CLI's --max-minutes): minutes above 0, fractions allowed (a
 * test's limit of about a second is 0.02); unset or blank gives the default.
 */
export function workLimitOf(text: string | undefined, name: string): number {
  if (text === undefined || text.trim() === '') return DEFAULT_MAX_WORK_MINUTES;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_WORK_LIMIT_MINUTES) {
    throw new Error(`${name} must be minutes above 0 and at most ${MAX_WORK_LIMIT_MINUTES}, got '${text}'`);
  }
  return n;
}

/** One attempt's and one preparation's time, as a sweep measures them (its points' `measured`). */
export interface StepTimes {
  attemptMs: Quantiles;
  prepareMs: Quantiles;
}

/**
 * Step times when nothing better is known: an uncontended writer (N = 1) of the sweeps measured on this project's
 * 2-core machine (bench/RESULTS.md, the sweep sections: local attempts 1-3 ms and preparations 2-6 ms at the median; radosgw
 * commits 49 ms at the median, 69 ms at p99).
 */
export const MEASURED_STEP_TIMES: Readonly<Record<'local' | 's3', StepTimes>> = {
  local: {
    attemptMs: { p10: 1, p50: 2, p90: 4, p99: 8 },
    prepareMs: { p10: 2, p50: 5, p90: 12, p99: 25 },
  },
  s3: {
    attemptMs: { p10: 15, p50: 25, p90: 40, p99: 60 },
    prepareMs: { p10: 20, p50: 40, p90: 80, p99: 150 },
  },
};

/**
 * A point's fixed cost per writer process: starting it and checking its commits. The measured sweeps' points took
 * 0.5-0.8 s at N = 1 and 25 s at N = 64 beyond their race on the 2-core machine (bench/RESULTS.md, the sweep sections).
 */
const POINT_PROCESS_MS = 400;

/**
 * What an estimate is made of, in ms: the waits (an append rate's gaps), the backoff pauses, and the work (attempts,
 * preparations, the processes started and checked).
 */
export interface WorkParts {
  waitsMs: number;
  pausesMs: number;
  workMs: number;
}

export interface WorkEstimate extends WorkParts {
  /** The whole estimate, in minutes. */
  minutes: number;
  /**
   * The longest one commit may pause between its tries, whatever the contention: every try after the first waits
   * its full backoff. A sweep whose policy lets one commit pause past the limit is refused, however light the
   * forecast's contention: a commit that meets more conflicts than forecast would hold the sweep that long.
   */
  longestPause?: { ms: number; field: string; why: string };
  /** The input field that drives it (the one to change to make the work shorter), e.g. `policy.backoff.capMs`. */
  field: string;
  /** Why, in a few words: what that field does to the estimate. */
  why: string;
}

export interface SweepEstimateContext {
  store?: 'local' | 's3';
  /** The cores the writers share on a local store (default 1). */
  cores?: number;
  /** Step times measured on that store; MEASURED_STEP_TIMES[store] when absent. */
  measured?: StepTimes;
}

/** The mean of the pause before try t (t >= 2) under the policy: the backoff with its jitter's mean. */
function meanPause(policy: SweepInput['policy'], t: number): { ms: number; capped: boolean } {
  const b = policy.backoff;
  if (b === null || t < 2) return { ms: 0, capped: false };
  const raw = b.baseMs * 2 ** (t - 2);
  const d = Math.min(b.capMs, raw);
  const ms = b.jitter === 'full' ? d / 2 : b.jitter === 'equal' ? (d * 3) / 4 : d;
  return { ms, capped: raw >= b.capMs };
}

/** The longest one commit's tries may pause under the policy: each pause at its full backoff (no jitter). */
function longestPause(policy: SweepInput['policy']): WorkEstimate['longestPause'] {
  const b = policy.backoff;
  if (b === null || policy.appTries < 2) return { ms: 0, field: 'policy.appTries', why: 'no pause between tries' };
  let ms = 0;
  let cappedMs = 0;
  for (let t = 2; t <= policy.appTries; t++) {
    const raw = b.baseMs * 2 ** (t - 2);
    const pause = Math.min(b.capMs, raw);
    ms += pause;
    if (raw >= b.capMs) cappedMs += pause;
  }
  const field = cappedMs * 2 >= ms ? 'policy.backoff.capMs' : 'policy.appTries';
  const why = `one commit may pause up to ${durationText(ms)} between its ${policy.appTries} tries (policy.appTries), each pause up to ${b.capMs} ms (policy.backoff.capMs)`;
  return { ms, field, why };
}

/** The commit at the 99th percentile of attempts (then tries): its attempts and tries. */
function p99Path(f: ContentionForecast): { attempts: number; tries: number } {
  const total = f.commitPaths.reduce((s, p) => s + p.commits, 0);
  const rank = Math.ceil(0.99 * total);
  let seen = 0;
  for (const p of f.commitPaths) {
    seen += p.commits;
    if (seen >= rank) return { attempts: p.attempts, tries: p.tries };
  }
  return { attempts: 0, tries: 0 };
}

interface PointCost extends WorkParts {
  writers: number;
  attempts: number;
  tries: number;
  cappedPausesMs: number;
  /** The point's writer processes (the compactor's too), and the part of workMs that is their start and checks. */
  processes: number;
  processesMs: number;
}

const totalOf = (p: WorkParts) => p.waitsMs + p.pausesMs + p.workMs;

function pointCost(input: SweepInput, ctx: Required<SweepEstimateContext>, n: number): PointCost {
  const measured = { attempts: { successPerAttempt: 1 }, commitsPerSec: 0, measured: ctx.measured };
  const groups = simulatePoint(
    { store: ctx.store, machine: { cores: ctx.cores }, input, points: [{ writers: 1, ...measured }] },
    n,
  );
  const compaction = input.operation === 'compaction';
  const running = n + (compaction ? 1 : 0);
  // On a local table the writers' steps share the cores; on S3 they are I/O and run at once.
  const stretch = ctx.store === 'local' ? Math.max(1, running / ctx.cores) : 1;
  const k = input.commitsPerWriter;
  const rate = compaction ? (input.appendRatePerSec ?? 1) : 0;
  // The compactor's commits are paced one interval in (they start at seq / rate); the appenders' at (seq - 1) / rate.
  const waitsMs = compaction ? (k * 1000) / rate : 0;
  let worst: PointCost | null = null;
  for (const g of groups) {
    const { attempts, tries } = p99Path(g);
    let pausesMs = 0;
    let cappedPausesMs = 0;
    for (let t = 2; t <= tries; t++) {
      const pause = meanPause(input.policy, t);
      pausesMs += pause.ms * k;
      if (pause.capped) cappedPausesMs += pause.ms * k;
    }
    const steps = k * (attempts * ctx.measured.attemptMs.p50 + tries * ctx.measured.prepareMs.p50) * stretch;
    const processesMs = running * POINT_PROCESS_MS;
    const workMs = steps + processesMs;
    const cost = {
      writers: n,
      attempts,
      tries,
      waitsMs,
      pausesMs,
      workMs,
      cappedPausesMs,
      processes: running,
      processesMs,
    };
    if (worst === null || totalOf(cost) > totalOf(worst)) worst = cost;
  }
  return worst as PointCost;
}

/** A duration in words: seconds, minutes, hours or days. */
export function durationText(ms: number): string {
  const s = ms / 1000;
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** How long a checked sweep would take, and the field that drives it. */
export function estimateSweep(input: SweepInput, context: SweepEstimateContext = {}): WorkEstimate {
  const store = context.store ?? 'local';
  const ctx = {
    store,
    cores: Math.max(1, context.cores ?? 1),
    measured: context.measured ?? MEASURED_STEP_TIMES[store],
  };
  const points = input.writers.map((n) => pointCost(input, ctx, n));
  const sum = (f: (p: PointCost) => number) => points.reduce((s, p) => s + f(p), 0);
  const parts = { waitsMs: sum((p) => p.waitsMs), pausesMs: sum((p) => p.pausesMs), workMs: sum((p) => p.workMs) };
  const heaviest = points.reduce((a, b) => (totalOf(b) > totalOf(a) ? b : a));
  const k = input.commitsPerWriter;
  const at = `at N = ${heaviest.writers}`;
  let field: string;
  let why: string;
  if (parts.waitsMs >= parts.pausesMs && parts.waitsMs >= parts.workMs) {
    field = 'appendRatePerSec';
    why = `compaction paces each writer's ${k} commits at ${input.appendRatePerSec} per second: ${durationText(heaviest.waitsMs)} of waiting at each point`;
  } else if (parts.pausesMs >= parts.workMs) {
    const capped = sum((p) => p.cappedPausesMs) * 2 >= parts.pausesMs;
    field = capped ? 'policy.backoff.capMs' : 'policy.backoff.baseMs';
    const b = input.policy.backoff;
    why = `the backoff pauses (up to ${b?.capMs} ms each) before the ${plural(heaviest.tries, 'try', 'tries')} of the forecast's 99th-percentile commit ${at} (policy.appTries ${input.policy.appTries}), ${k} commits per writer`;
  } else if (sum((p) => p.processesMs) * 2 >= parts.workMs) {
    field = 'writers';
    why = `${sum((p) => p.processes)} writer processes started and checked over the points`;
  } else {
    field = heaviest.attempts > 1 ? 'writers' : 'commitsPerWriter';
    why = `the forecast's 99th-percentile commit ${at} makes ${plural(heaviest.attempts, 'attempt')} in ${plural(heaviest.tries, 'try', 'tries')}, ${k} commits per writer`;
  }
  return { ...parts, minutes: totalOf(parts) / 60_000, field, why, longestPause: longestPause(input.policy) };
}

/**
 * A race run's cost at scale 1 beyond its fixed part: the lab's slowest runs (a Postgres case's reset and check, the
 * Delta rewrites) take about 15 s a run on the 2-core machine, appends about 3 s (bench/RESULTS.md).
 */
const RACE_RUN_FIXED_MS = 3000;
const RACE_RUN_SCALED_MS = 12_000;
const RACE_WRITER_MS = 500;

/** How long a race would take: its runs one after another, each its fixed cost, its data's and its writers'. */
export function estimateRace(race: { runs: number; scale: number; writers: number }): WorkEstimate {
  const perRun = RACE_RUN_FIXED_MS + RACE_RUN_SCALED_MS * race.scale + RACE_WRITER_MS * race.writers;
  const workMs = race.runs * perRun;
  return {
    waitsMs: 0,
    pausesMs: 0,
    workMs,
    minutes: workMs / 60_000,
    field: 'runs',
    why: `${plural(race.runs, 'run')} of ${race.writers} writers at scale ${race.scale}, about ${durationText(perRun)} each`,
  };
}

/** The refusal of work estimated above the limit: the estimate, the limit and the field that drives it. */
export function tooLongMessage(kind: 'sweep' | 'race', estimate: WorkEstimate, limitMinutes: number): string {
  return `the ${kind} would take about ${durationText(estimate.minutes * 60_000)}, over the ${limitMinutes}-minute limit (LAB_MAX_WORK_MINUTES); ${estimate.field} drives it: ${estimate.why}`;
}

/** Why work is refused at the limit: what it says, the field to change, and the minutes that broke the limit. */
export interface WorkRefusal {
  message: string;
  field: string;
  minutes: number;
}

/**
 * Whether work is refused at `limitMinutes`: its estimate is above the limit, or one commit alone may pause past it
 * (the estimate follows the forecast's 99th-percentile commit; the policy's own pauses bound every commit); null
 * when it is accepted.
 */
export function workRefusal(kind: 'sweep' | 'race', estimate: WorkEstimate, limitMinutes: number): WorkRefusal | null {
  if (estimate.minutes > limitMinutes)
    return { message: tooLongMessage(kind, estimate, limitMinutes), field: estimate.field, minutes: estimate.minutes };
  const pause = estimate.longestPause;
  if (pause === undefined || pause.ms <= limitMinutes * 60_000) return null;
  return {
    message: `one commit of the ${kind} could pause about ${durationText(pause.ms)}, over the ${limitMinutes}-minute limit (LAB_MAX_WORK_MINUTES), though the whole ${kind} would take about ${durationText(estimate.minutes * 60_000)} at the forecast's contention; ${pause.field} drives it: ${pause.why}`,
    field: pause.field,
    minutes: pause.ms / 60_000,
  };
}
