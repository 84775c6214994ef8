/**
 * The contention findings: every table whose jobs state a commit rate (commitsPerHour, `concurrency` instances) is
 * forecast by the engine's contention model (simulateContention), all its rated writers at once, each with its
 * retry policy. A job whose commits the forecast says fail after all retries more often than EXHAUSTION_THRESHOLD
 * is `retry-exhaustion-risk` (an optimize job: `compaction-starved`), with the smallest policy of FIX_LADDER that,
 * forecast again with the rest unchanged, brings every such job of the table under the threshold, and the commits
 * an hour the forecast drops with it beside those it drops with the job's own policy. A job without a
 * rate is left out of the forecast and gets no such finding; nothing here reads the table.
 *
 * Which commits refuse which: the audit's pair forecasts where it made them (table data, the engine's checker);
 * else appends refuse nobody and are refused by nobody (blind appends under delta-rs's checker; a compaction's
 * removes are dataChange=false), and two rewrites (update, delete, merge, overwrite, optimize) on one table are
 * taken to conflict.
 */
import { RETRY_POLICIES, type RetryPolicy } from '@racelab/contracts';
import {
  type ContentionPolicy,
  DEFAULT_MAX_RETRIES,
  type GroupOutcome,
  isS3Url,
  type Quantiles,
  simulateContention,
  type WriterGroup,
} from '@racelab/engine';
import { BACKOFF_JITTER, policySpelling, spelledPolicy } from '../sweep/policy';
import { auditBudgets, type PairBudget } from './limits';
import { byTable, libraryOf } from './rules';
import type { PairForecast } from './tables';
import type { Finding, Job } from './types';

/** A job at risk: more than 1 commit in 100 fails after every library and application retry. */
export const EXHAUSTION_THRESHOLD = 0.01;
/** An error, not a warning, when at least half its commits fail. */
const ERROR_EXHAUSTION = 0.5;

const WRITES = new Set(['append', 'overwrite', 'update', 'delete', 'merge', 'optimize']);
const REWRITES = new Set(['overwrite', 'update', 'delete', 'merge', 'optimize']);

/**
 * The latencies the audit assumes (it measures nothing): one attempt (list + judge + claim) on an object store
 * such as S3 and on local disk, and a change's preparation (read + write files) by kind. The sweep measures
 * these for a table; docs/ says how to read a finding against them.
 */
export const AUDIT_LATENCY = {
  attemptMs: {
    s3: { p10: 40, p50: 80, p90: 200, p99: 500 },
    local: { p10: 2, p50: 4, p90: 10, p99: 30 },
  },
  prepareMs: {
    append: { p10: 200, p50: 500, p90: 2_000, p99: 5_000 },
    rewrite: { p10: 2_000, p50: 5_000, p90: 20_000, p99: 60_000 },
  },
} as const satisfies { attemptMs: Record<string, Quantiles>; prepareMs: Record<string, Quantiles> };

/** The fixes tried, smallest first: more library retries, then the application loop's redo with backoff. */
export const FIX_LADDER: readonly RetryPolicy[] = [
  RETRY_POLICIES['delta-rs'],
  spelledPolicy('delta-rs:50') as RetryPolicy,
  RETRY_POLICIES['pyiceberg-like'],
  BACKOFF_JITTER,
  { name: 'custom', maxCommitRetries: 15, appTries: 5, backoff: { baseMs: 100, capMs: 60_000, jitter: 'full' } },
  { name: 'custom', maxCommitRetries: 15, appTries: 10, backoff: { baseMs: 500, capMs: 60_000, jitter: 'full' } },
  RETRY_POLICIES['spark-like'],
];

/** Commits simulated per repetition, and repetitions until every rated job has been seen MIN_SAMPLES times. */
const COMMITS_PER_RUN = 600;
const MIN_SAMPLES = 40;
const MAX_RUNS = 12;
const SEED = 22;

/** The policy a job's manifest entry gives, as a preset or numbers; else what its engine does by default. */
export function policyOf(job: Job): RetryPolicy {
  const p = job.retryPolicy;
  if (typeof p === 'string') return RETRY_POLICIES[p];
  if (p) return p;
  const engine = libraryOf(job.engine);
  if (engine === 'delta-spark' || engine === 'databricks') return RETRY_POLICIES['spark-like'];
  const retries = job.commitProperties?.maxCommitRetries;
  return retries === undefined
    ? RETRY_POLICIES['delta-rs']
    : { name: 'custom', maxCommitRetries: retries, appTries: 1, backoff: null };
}

/** What the engine runs: delta-rs commits OPTIMIZE with its default retries whatever the caller asked. */
function effective(job: Job, p: RetryPolicy): ContentionPolicy {
  const engine = libraryOf(job.engine);
  const rs = engine === 'delta-rs' || engine === 'delta-rs-legacy' || engine === null;
  return job.operation === 'optimize' && rs ? { ...p, maxCommitRetries: DEFAULT_MAX_RETRIES } : p;
}

export const describePolicy = (p: RetryPolicy) =>
  `${policySpelling(p)} (${p.maxCommitRetries} library retries, ${p.appTries} ${p.appTries === 1 ? 'try' : 'tries'}${p.backoff ? `, backoff ${p.backoff.baseMs}-${p.backoff.capMs} ms ${p.backoff.jitter} jitter` : ', no pause'})`;

const rated = (j: Job) => WRITES.has(j.operation) && j.commitsPerHour !== undefined;
const instancesOf = (j: Job) => j.concurrency ?? 1;

/** Whether `winner`'s landed commit refuses `loser`'s: the pair forecast when there is one, else by kind. */
function conflictRule(pairs: PairForecast[]) {
  const forecast = new Map(pairs.map((p) => [`${p.first}\u0000${p.second}`, p.secondCommits]));
  return (winner: Job, loser: Job) => {
    const said = winner === loser ? undefined : forecast.get(`${winner.name}\u0000${loser.name}`);
    if (said === true || said === false) return !said;
    return REWRITES.has(winner.operation) && REWRITES.has(loser.operation);
  };
}

export interface TableForecast {
  jobs: Job[];
  /** Per job, in `jobs` order. */
  outcomes: GroupOutcome[];
}

/** The table's rated jobs forecast together, each under `policies[i]`. */
export function forecastTable(jobs: Job[], policies: RetryPolicy[], pairs: PairForecast[]): TableForecast {
  const totalPerSec = jobs.reduce((s, j) => s + (j.commitsPerHour as number) / 3600, 0);
  const horizonMs = Math.min(3_600_000, (COMMITS_PER_RUN / totalPerSec) * 1000);
  const groups: WriterGroup[] = jobs.map((j, i) => {
    const perInstance = (j.commitsPerHour as number) / 3600 / instancesOf(j);
    return {
      count: instancesOf(j),
      commits: Math.max(1, Math.round((perInstance * horizonMs) / 1000)),
      policy: effective(j, policies[i] as RetryPolicy),
      attemptMs: isS3Url(j.table) ? AUDIT_LATENCY.attemptMs.s3 : AUDIT_LATENCY.attemptMs.local,
      prepareMs: j.operation === 'append' ? AUDIT_LATENCY.prepareMs.append : AUDIT_LATENCY.prepareMs.rewrite,
      arrival: { spreadOverMs: horizonMs },
    };
  });
  const owner = groups.flatMap((g, i) => Array.from({ length: g.count }, () => jobs[i] as Job));
  const rule = conflictRule(pairs);
  const conflicts = (w: number, l: number) => rule(owner[w] as Job, owner[l] as Job);
  const sums: GroupOutcome[] = jobs.map(() => ({
    intended: 0,
    acknowledged: 0,
    failed: 0,
    attempts: 0,
    histogram: [],
    failures: [],
    paths: [],
  }));
  const failures = jobs.map(() => new Map<string, number>());
  for (let run = 0; run < MAX_RUNS && Math.min(...sums.map((s) => s.intended)) < MIN_SAMPLES; run++) {
    const out = simulateContention({ groups, conflicts, seed: SEED + run });
    out.groups.forEach((g, i) => {
      const s = sums[i] as GroupOutcome;
      s.intended += g.intended;
      s.acknowledged += g.acknowledged;
      s.failed += g.failed;
      s.attempts += g.attempts;
      for (const f of g.failures) failures[i]?.set(f.message, (failures[i]?.get(f.message) ?? 0) + f.count);
    });
  }
  sums.forEach((s, i) => {
    s.failures = [...(failures[i] as Map<string, number>)]
      .sort((a, b) => b[1] - a[1])
      .map(([message, count]) => ({ message, count }));
  });
  return { jobs, outcomes: sums };
}

const exhaustionOf = (o: GroupOutcome) => (o.intended === 0 ? 0 : o.failed / o.intended);
const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;

/** The smallest policy of the ladder that, given to every job at risk, forecasts them all under the threshold. */
function smallestFix(jobs: Job[], atRisk: Set<number>, pairs: PairForecast[]) {
  const current = jobs.map(policyOf);
  // What the jobs run now was forecast already: a candidate the engine would run the same way is not tried.
  const tried = new Set([JSON.stringify(current.map((p, i) => effective(jobs[i] as Job, p)))]);
  for (const candidate of FIX_LADDER) {
    // Only what the engine would run differently is worth a forecast (delta-rs's OPTIMIZE ignores library retries).
    const policies = current.map((p, i) => (atRisk.has(i) ? candidate : p));
    const key = JSON.stringify(policies.map((p, i) => effective(jobs[i] as Job, p)));
    if (tried.has(key)) continue;
    tried.add(key);
    const f = forecastTable(jobs, policies, pairs);
    // Cleared is what "at risk" is not: at most the threshold.
    if ([...atRisk].every((i) => exhaustionOf(f.outcomes[i] as GroupOutcome) <= EXHAUSTION_THRESHOLD)) {
      return { policy: candidate, forecast: f };
    }
  }
  return null;
}

/** A share of a job's commits an hour, as a count (one decimal: a forecast's 0.4 an hour is not none). */
const perHour = (j: Job, share: number) => ((j.commitsPerHour as number) * share).toFixed(1);

/**
 * What the fix's forecast drops of a job's commits an hour, beside what its own policy's forecast drops; `writers`
 * is every rated instance on the table (the job's and the others').
 */
const dropsText = (j: Job, writers: number, fixed: GroupOutcome, now: GroupOutcome) =>
  `${j.name} drops ${perHour(j, exhaustionOf(fixed))} of its ${j.commitsPerHour} commits an hour (${pct(exhaustionOf(fixed))}) with ${writers} writers on the table, against ${perHour(j, exhaustionOf(now))} (${pct(exhaustionOf(now))}) with ${describePolicy(policyOf(j))}`;

const rateOf = (j: Job) =>
  `${j.name} (${j.operation}, ${j.commitsPerHour}/h${instancesOf(j) > 1 ? ` over ${instancesOf(j)} instances` : ''}, ${describePolicy(policyOf(j))})`;

/** The findings of one table's rated jobs; none when its instances do not fit in what is left of `budget`. */
function tableFindings(table: string, tableJobs: Job[], pairs: PairForecast[], budget: PairBudget): Finding[] {
  const jobs = tableJobs.filter(rated);
  const instances = jobs.reduce((s, j) => s + instancesOf(j), 0);
  // Contention needs two commits in flight: two jobs, or one job's instances.
  if (jobs.length === 0 || instances < 2 || !budget.take(instances)) return [];
  const forecast = forecastTable(jobs, jobs.map(policyOf), pairs);
  const atRisk = new Set(
    jobs.flatMap((_, i) => (exhaustionOf(forecast.outcomes[i] as GroupOutcome) > EXHAUSTION_THRESHOLD ? [i] : [])),
  );
  if (atRisk.size === 0) return [];
  const fix = smallestFix(jobs, atRisk, pairs);
  const unrated = tableJobs.filter((j) => WRITES.has(j.operation) && !rated(j)).map((j) => j.name);
  const latency = isS3Url(table)
    ? `an object store (attempt p50 ${AUDIT_LATENCY.attemptMs.s3.p50} ms)`
    : `local disk (attempt p50 ${AUDIT_LATENCY.attemptMs.local.p50} ms)`;
  const setting = `${jobs.map(rateOf).join('; ')} commit to ${table}${unrated.length > 0 ? ` (${unrated.join(', ')}: no commitsPerHour, left out)` : ''}`;
  const out: Finding[] = [];
  for (const starved of [false, true]) {
    const named = [...atRisk].filter((i) => (jobs[i]?.operation === 'optimize') === starved);
    if (named.length === 0) continue;
    const worst = Math.max(...named.map((i) => exhaustionOf(forecast.outcomes[i] as GroupOutcome)));
    const fates = named.map((i) => {
      const o = forecast.outcomes[i] as GroupOutcome;
      const message = o.failures[0]?.message;
      return `${pct(exhaustionOf(o))} of ${jobs[i]?.name}'s commits fail after all retries${message ? ` (mostly "${message}")` : ''}, ${pct(o.attempts === 0 ? 0 : o.acknowledged / o.attempts)} of its attempts land`;
    });
    const fixText = fix
      ? `give ${named.map((i) => jobs[i]?.name).join(', ')} the retry policy ${describePolicy(fix.policy)}: forecast again, ${named.map((i) => dropsText(jobs[i] as Job, instances, fix.forecast.outcomes[i] as GroupOutcome, forecast.outcomes[i] as GroupOutcome)).join('; ')}`
      : `no retry policy up to ${describePolicy(FIX_LADDER[FIX_LADDER.length - 1] as RetryPolicy)} brings it under ${pct(EXHAUSTION_THRESHOLD)}: lower the commit rate or the instances, batch commits, or ${starved ? 'compact when the appends pause' : 'split the writers over partitions or tables'}`;
    out.push({
      rule: starved ? 'compaction-starved' : 'retry-exhaustion-risk',
      severity: worst >= ERROR_EXHAUSTION ? 'error' : 'warning',
      jobs: named.map((i) => jobs[i]?.name as string),
      table,
      evidence: `${setting}. The contention forecast (the commit loop simulated with ${latency}, threshold ${pct(EXHAUSTION_THRESHOLD)}): ${fates.join('; ')}`,
      fix: fixText,
      ...(fix ? { fixPolicy: fix.policy } : {}),
      exhaustion: worst,
    });
  }
  return out;
}

/**
 * Every table's contention findings; `pairs` (the audit's pair forecasts) refine which commits refuse which.
 * Tables are forecast fewest instances first, within `budget` (limits.ts), which reports the tables left out.
 */
export function contentionFindings(
  jobs: Job[],
  pairs: PairForecast[] = [],
  budget: PairBudget = auditBudgets().contention,
): Finding[] {
  const weight = (tableJobs: Job[]) => tableJobs.filter(rated).reduce((s, j) => s + instancesOf(j), 0);
  return [...byTable(jobs)]
    .sort(([, a], [, b]) => weight(a) - weight(b))
    .flatMap(([table, tableJobs]) =>
      tableFindings(
        table,
        tableJobs,
        pairs.filter((p) => p.table === table),
        budget,
      ),
    );
}
