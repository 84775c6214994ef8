/**
 * The contention forecast: many writers' commit loops, simulated event by event, seeded. Each writer runs the
 * engine's loop exactly (delta/commit/commit.ts, delta-rs 1.6.x) inside the lab's application loop:
 *
 * - a try reads the table (its read version) and prepares its change for a sampled `prepareMs`;
 * - each library attempt lists the latest version; if the table moved and `maxCommitRetries` is 0 it fails at
 *   once (`Failed to commit transaction: 0`), else every winner since the read is judged (`conflicts`), and the
 *   first that conflicts refuses the commit; then, at the end of its sampled `attemptMs` (of which `claimShare`
 *   lies after the listing), it claims latest + 1, which fails when another writer claimed that version first,
 *   and the loop goes round;
 * - a try that failed is redone by the application loop (reopen, prepare again) after its backoff pause, up to
 *   `appTries` tries.
 *
 * A simulation, not a closed form: the outcome depends on how the loop's steps interleave (a refusal at the
 * listing with retries off, winners judged since the read, claims lost in the attempt's window, backoff that
 * spreads the redo), which no product formula for p = P(no claim in the window) captures once writers retry and
 * synchronise. Pure and browser-safe: no `node:` imports, no clock, the same answer for the same seed.
 */

/** Latency quantiles in ms, as the sweep measures them. */
export interface Quantiles {
  p10: number;
  p50: number;
  p90: number;
  p99: number;
}

/** A retry policy in numbers (the sweep's RetryPolicy without its name). */
export interface ContentionPolicy {
  /** The library's commit loop (delta-rs max_commit_retries). */
  maxCommitRetries: number;
  /** The application loop's tries of the whole change (1 = no app retry). */
  appTries: number;
  /** The pause before try t > 1: min(cap, base * 2^(t-2)), with its jitter; null = no pause. */
  backoff: { baseMs: number; capMs: number; jitter: 'none' | 'full' | 'equal' } | null;
}

/** Identical writers. */
export interface WriterGroup {
  count: number;
  /** Commits each writer makes; 'background' writers commit until every other writer is done. */
  commits: number | 'background';
  policy: ContentionPolicy;
  attemptMs: Quantiles;
  prepareMs: Quantiles;
  /** Commits per second per writer; absent = a closed loop (the next commit starts when the last ends). */
  arrivalPerSec?: number;
  /**
   * Paced (every 1/rate, from the release) or Poisson arrivals, paced by default; or each writer's commits at
   * uniform random times over `spreadOverMs` (a Poisson stream seen over a window, given its count), which keeps
   * a rare writer's few commits among the others' instead of after them.
   */
  arrival?: 'paced' | 'poisson' | { spreadOverMs: number };
}

export interface ContentionModel {
  groups: WriterGroup[];
  /** Whether `loser`'s commit is refused when `winner`'s commit landed since its read (writers numbered in group order). Default: never (appends). */
  conflicts?: (winner: number, loser: number) => boolean;
  seed: number;
  /** A commit still not landed after this many attempts counts as failed (an unbounded policy against endless winners). */
  maxAttemptsPerCommit?: number;
  /**
   * Processors the writers share, when their steps are CPU work (a local table). They are shared as Linux's
   * scheduler (CFS, and EEVDF since 6.6) sets out to share them: an ideal multi-tasking processor, on which each of
   * R runnable steps advances at min(1, cpus / R) of full speed, so no step ever holds a processor while the others
   * wait: a writer is preempted anywhere, also between its listing and its claim. (The real scheduler approximates
   * this in slices of a few ms; with R > cpus a step's wall time is its work times R / cpus either way.)
   * Absent: every writer runs at once at full speed (I/O-bound, e.g. S3).
   */
  cpus?: number;
  /**
   * The share of an attempt's time that lies between its listing and its claim, the window in which another
   * writer's claim takes the version (the rest comes before the listing). Default 1: the listing starts the attempt.
   */
  claimShare?: number;
}

export interface GroupOutcome {
  intended: number;
  acknowledged: number;
  failed: number;
  attempts: number;
  /** Attempts per acknowledged commit (over all its tries). */
  histogram: { attempts: number; commits: number }[];
  failures: { message: string; count: number }[];
}

export interface ContentionOutcome {
  groups: GroupOutcome[];
  /** From the release to the last non-background writer done. */
  durationMs: number;
}

export const MAX_SIMULATED_ATTEMPTS_PER_COMMIT = 10_000;
/** The message of a commit the model gave up on (MAX_SIMULATED_ATTEMPTS_PER_COMMIT). */
export const STILL_TRYING = 'still trying when the model stopped';

/**
 * mulberry32: small, fast, good enough for sampling latencies and jitter; seeded so a forecast (and a sweep's
 * pauses, packages/lab/src/sweep/policy.ts) repeats.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
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

/** The application loop's pause before try `t` (t >= 2). */
export function backoffPause(policy: ContentionPolicy, t: number, random: () => number): number {
  const b = policy.backoff;
  if (b === null || t < 2) return 0;
  const d = Math.min(b.capMs, b.baseMs * 2 ** (t - 2));
  if (b.jitter === 'full') return random() * d;
  if (b.jitter === 'equal') return d / 2 + (random() * d) / 2;
  return d;
}

/** A binary heap of events by time, ties in scheduling order: the simulation's only data structure. */
class EventQueue {
  private times: number[] = [];
  private seqs: number[] = [];
  private writers: number[] = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, writer: number): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.writers.push(writer);
    let i = this.times.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest event's time (the queue is not empty). */
  peekTime(): number {
    return this.times[0] as number;
  }

  /** The earliest event: [time, writer]. */
  pop(): [number, number] {
    const top: [number, number] = [this.times[0] as number, this.writers[0] as number];
    const last = this.times.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.seqs.pop();
    this.writers.pop();
    let i = 0;
    for (;;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let m = i;
      if (l < this.times.length && this.before(l, m)) m = l;
      if (r < this.times.length && this.before(r, m)) m = r;
      if (m === i) return top;
      this.swap(i, m);
      i = m;
    }
  }

  private before(a: number, b: number): boolean {
    const [ta, tb] = [this.times[a] as number, this.times[b] as number];
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private swap(a: number, b: number): void {
    for (const xs of [this.times, this.seqs, this.writers]) {
      const t = xs[a] as number;
      xs[a] = xs[b] as number;
      xs[b] = t;
    }
  }
}

/** Where a writer is in its loops; its next event continues from here. */
type Step = 'commit' | 'try' | 'list' | 'claim' | 'done';

interface Writer {
  group: number;
  policy: ContentionPolicy;
  attempt: (u: number) => number;
  prepare: (u: number) => number;
  /** Mean gap between arrivals (ms); 0 for a closed loop. */
  gapMs: number;
  poisson: boolean;
  /** The arrival times of a spread writer's commits, in order; null otherwise. */
  arrivals: number[] | null;
  made: number;
  background: boolean;
  commitsLeft: number;
  nextArrival: number;
  step: Step;
  appTry: number;
  libraryAttempt: number;
  readVersion: number;
  /** Attempts made by the current commit, over all its tries. */
  attempts: number;
  /** Set at the listing: why the attempt ends in a refusal instead of a claim. */
  refusal: string | null;
  /** The window of the current attempt, from its listing to its claim (ms), when it was drawn before the listing. */
  claimMs: number;
}

const failedText = (retries: number) => `Failed to commit transaction: ${retries}`;
/** The refusal of a conflicting winner: the checker's CommitFailedError (its exact text depends on the change). */
export const CONFLICT_REFUSAL = 'Failed to commit transaction: <conflict>';

/** Runs the model to the end: every non-background writer has made all its commits. */
export function simulateContention(model: ContentionModel): ContentionOutcome {
  const random = seededRandom(model.seed);
  const cap = model.maxAttemptsPerCommit ?? MAX_SIMULATED_ATTEMPTS_PER_COMMIT;
  const conflicts = model.conflicts ?? (() => false);
  const writers: Writer[] = [];
  model.groups.forEach((g, group) => {
    for (let i = 0; i < g.count; i++) {
      const background = g.commits === 'background';
      const gapMs = g.arrivalPerSec && g.arrivalPerSec > 0 ? 1000 / g.arrivalPerSec : 0;
      const spread = typeof g.arrival === 'object' && !background ? g.arrival.spreadOverMs : null;
      const arrivals =
        spread === null
          ? null
          : Array.from({ length: g.commits as number }, () => random() * spread).sort((a, b) => a - b);
      writers.push({
        group,
        policy: g.policy,
        attempt: quantileSampler(g.attemptMs),
        prepare: quantileSampler(g.prepareMs),
        gapMs,
        poisson: g.arrival === 'poisson',
        arrivals,
        made: 0,
        background,
        commitsLeft: background ? Number.POSITIVE_INFINITY : (g.commits as number),
        nextArrival: 0,
        step: 'commit',
        appTry: 0,
        libraryAttempt: 0,
        readVersion: -1,
        attempts: 0,
        refusal: null,
        claimMs: 0,
      });
    }
  });
  const outcomes = model.groups.map(() => ({
    intended: 0,
    acknowledged: 0,
    failed: 0,
    attempts: 0,
    histogram: new Map<number, number>(),
    failures: new Map<string, number>(),
  }));
  /** Who claimed each version (index = version); the table starts at version 0, made by no writer here. */
  const owners: number[] = [-1];
  const queue = new EventQueue();
  let foreground = writers.filter((w) => !w.background && w.commitsLeft > 0).length;
  let durationMs = 0;
  /** When the writer's next commit arrives, counted from the release. */
  const arrivalAfter = (w: Writer, previous: number) => {
    if (w.arrivals) return w.arrivals[w.made] ?? previous;
    if (w.gapMs === 0) return previous;
    if (w.poisson) return previous - Math.log(1 - random()) * w.gapMs;
    return w.made === 0 ? 0 : previous + w.gapMs;
  };
  writers.forEach((w, id) => {
    w.nextArrival = arrivalAfter(w, 0);
    if (w.commitsLeft > 0) queue.push(w.nextArrival, id);
    else w.step = 'done';
  });

  const finishCommit = (w: Writer, now: number, failure: string | null) => {
    const out = outcomes[w.group] as (typeof outcomes)[number];
    out.intended++;
    out.attempts += w.attempts;
    if (failure === null) {
      out.acknowledged++;
      out.histogram.set(w.attempts, (out.histogram.get(w.attempts) ?? 0) + 1);
    } else {
      out.failed++;
      out.failures.set(failure, (out.failures.get(failure) ?? 0) + 1);
    }
    w.commitsLeft--;
    w.made++;
    if (w.commitsLeft <= 0) {
      w.step = 'done';
      if (!w.background && --foreground === 0) durationMs = now;
      return null;
    }
    w.step = 'commit';
    w.nextArrival = arrivalAfter(w, w.nextArrival);
    return Math.max(now, w.nextArrival);
  };

  /** A try that ended without landing: the app loop redoes it after its pause, or the commit fails. */
  const tryFailed = (w: Writer, now: number, message: string) => {
    if (w.appTry < w.policy.appTries && w.attempts < cap) {
      w.appTry++;
      w.step = 'try';
      return now + backoffPause(w.policy, w.appTry, random);
    }
    return finishCommit(w, now, w.attempts >= cap ? STILL_TRYING : message);
  };

  const cpus = model.cpus;
  const share = Math.min(1, Math.max(0, model.claimShare ?? 1));
  /**
   * An attempt's time before its listing; its window (listing to claim) is kept for the listing. With the default
   * share nothing comes before the listing and the attempt is drawn there (the draws stay in their old order).
   */
  const beforeListing = (w: Writer) => {
    if (share >= 1) return 0;
    const ms = w.attempt(random());
    w.claimMs = ms * share;
    return ms - w.claimMs;
  };
  /**
   * The steps running on the shared processors, by the virtual time at which each ends: `virtual` is the work one
   * running step has received since the release, advancing at min(1, cpus / running) per ms, so a step of `ms`
   * started at virtual time v ends when it reaches v + ms, whoever starts or ends meanwhile.
   */
  const running = new EventQueue();
  let virtual = 0;
  let lastMs = 0;
  const speed = () => (cpus === undefined || running.size <= cpus ? 1 : cpus / running.size);
  const advanceTo = (t: number) => {
    virtual += (t - lastMs) * speed();
    lastMs = t;
  };
  /** A step of `ms` from `now`: on the shared processors (cpus), else a plain wait. */
  const run = (id: number, now: number, ms: number): number | null => {
    if (cpus === undefined) return now + ms;
    advanceTo(now);
    running.push(virtual + ms, id);
    return null;
  };
  /** The next event: a step on the processors ending, or a timed one, whichever comes first. */
  const nextEvent = (): [number, number] => {
    if (running.size > 0) {
      const ends = lastMs + (running.peekTime() - virtual) / speed();
      if (queue.size === 0 || ends < queue.peekTime()) {
        const [v, id] = running.pop();
        virtual = v;
        lastMs = ends;
        return [ends, id];
      }
    }
    return queue.pop();
  };

  while ((queue.size > 0 || running.size > 0) && foreground > 0) {
    const [now, id] = nextEvent();
    const w = writers[id] as Writer;
    let next: number | null = null;
    switch (w.step) {
      case 'commit':
        w.appTry = 1;
        w.attempts = 0;
        w.step = 'try';
        next = now;
        break;
      case 'try':
        // The table is read when the change starts; the change is ready prepareMs later, and the first attempt
        // lists after its own work before the listing.
        w.readVersion = owners.length - 1;
        w.libraryAttempt = 0;
        w.step = 'list';
        next = run(id, now, w.prepare(random()) + beforeListing(w));
        break;
      case 'list': {
        w.libraryAttempt++;
        w.attempts++;
        w.refusal = null;
        const latest = owners.length - 1;
        if (latest > w.readVersion) {
          if (w.policy.maxCommitRetries === 0) w.refusal = failedText(0);
          else {
            for (let v = w.readVersion + 1; v <= latest && w.refusal === null; v++) {
              if (conflicts(owners[v] as number, id)) w.refusal = CONFLICT_REFUSAL;
            }
            w.readVersion = latest;
          }
        }
        w.step = 'claim';
        next = run(id, now, share >= 1 ? w.attempt(random()) : w.claimMs);
        break;
      }
      case 'claim':
        if (w.refusal !== null) next = tryFailed(w, now, w.refusal);
        else if (owners.length - 1 === w.readVersion) {
          owners.push(id);
          next = finishCommit(w, now, null);
        } else if (w.libraryAttempt <= w.policy.maxCommitRetries && w.attempts < cap) {
          w.step = 'list';
          const before = beforeListing(w);
          next = before > 0 ? run(id, now, before) : now;
        } else next = tryFailed(w, now, failedText(w.policy.maxCommitRetries));
        break;
      case 'done':
        break;
    }
    if (next !== null) queue.push(next, id);
  }

  return {
    durationMs,
    groups: outcomes.map((o) => ({
      intended: o.intended,
      acknowledged: o.acknowledged,
      failed: o.failed,
      attempts: o.attempts,
      histogram: [...o.histogram].sort((a, b) => a[0] - b[0]).map(([attempts, commits]) => ({ attempts, commits })),
      failures: [...o.failures].sort((a, b) => b[1] - a[1]).map(([message, count]) => ({ message, count })),
    })),
  };
}

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
