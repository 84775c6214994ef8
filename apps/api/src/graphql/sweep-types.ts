/**
 * A sweep's GraphQL types: its input as checked, its progress, and the figures of the lab's SweepResults
 * (contracts/sweep-results.schema.json: the points, their checks and the forecast; the input is the sweep's own
 * field), so the dashboard reads typed numbers, the same the CLI prints.
 */
import type {
  Backoff,
  Quantiles,
  RetryPolicy,
  SweepFailure,
  SweepForecast,
  SweepInput,
  SweepPoint,
  SweepResults,
} from '@racelab/contracts';
import type { Sweep } from '../db/prisma';
import { ActorType, storedActorOf } from './actor-types';
import { builder } from './builder';
import { RaceStatusEnum } from './race-status';

const BackoffType = builder.objectRef<Backoff>('SweepBackoff').implement({
  description: "the app loop's pause before try t > 1: min(capMs, baseMs * 2^(t-2)), jittered",
  fields: (t) => ({
    baseMs: t.exposeInt('baseMs'),
    capMs: t.exposeInt('capMs'),
    jitter: t.exposeString('jitter', { description: 'none, full or equal' }),
  }),
});

export const RetryPolicyType = builder.objectRef<RetryPolicy>('RetryPolicy').implement({
  description: 'a retry policy as numbers: pauses happen only in the app loop, never inside the commit loop',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'delta-rs, pyiceberg-like, spark-like, none or custom' }),
    maxCommitRetries: t.exposeInt('maxCommitRetries', { description: "the engine's commit loop (max_commit_retries)" }),
    appTries: t.exposeInt('appTries', { description: "the application loop's tries of the whole change" }),
    backoff: t.field({ type: BackoffType, nullable: true, resolve: (p) => p.backoff }),
  }),
});

const SweepInputType = builder.objectRef<SweepInput>('SweepInput').implement({
  fields: (t) => ({
    scenario: t.string({
      nullable: true,
      description: 'the scenario that fixed writers, commitsPerWriter and operation; null when none did',
      resolve: (i) => i.scenario ?? null,
    }),
    writers: t.exposeIntList('writers', { description: 'N for each point' }),
    commitsPerWriter: t.exposeInt('commitsPerWriter'),
    operation: t.exposeString('operation'),
    appendRatePerSec: t.float({ nullable: true, resolve: (i) => i.appendRatePerSec ?? null }),
    policy: t.field({ type: RetryPolicyType, resolve: (i) => i.policy }),
    seed: t.exposeFloat('seed'),
    tableFormat: t.string({ description: 'delta or iceberg', resolve: (i) => i.tableFormat ?? 'delta' }),
    catalog: t.string({ nullable: true, description: "iceberg's SQL catalog", resolve: (i) => i.catalog ?? null }),
  }),
});

const FailureType = builder.objectRef<SweepFailure>('SweepFailure').implement({
  description: 'commits that failed with one exact message',
  fields: (t) => ({ message: t.exposeString('message'), count: t.exposeInt('count') }),
});

const QuantilesType = builder.objectRef<Quantiles>('SweepQuantiles').implement({
  description: 'milliseconds',
  fields: (t) => ({
    p10: t.exposeFloat('p10'),
    p50: t.exposeFloat('p50'),
    p90: t.exposeFloat('p90'),
    p99: t.exposeFloat('p99'),
  }),
});

type Point = SweepPoint;

const CommitsType = builder.objectRef<Point['commits']>('SweepCommits').implement({
  fields: (t) => ({
    acknowledged: t.exposeInt('acknowledged'),
    failed: t.exposeInt('failed'),
    intended: t.exposeInt('intended'),
  }),
});

const HistogramBarType = builder.objectRef<Point['attempts']['histogram'][number]>('SweepAttemptsBar').implement({
  description: 'how many acknowledged commits took this many attempts',
  fields: (t) => ({ attempts: t.exposeInt('attempts'), commits: t.exposeInt('commits') }),
});

const AttemptsType = builder.objectRef<Point['attempts']>('SweepAttempts').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    successPerAttempt: t.exposeFloat('successPerAttempt', { description: 'acknowledged / total' }),
    histogram: t.field({ type: [HistogramBarType], resolve: (a) => a.histogram }),
  }),
});

const LatencyType = builder.objectRef<Point['latencyMs']>('SweepLatency').implement({
  description: "per acknowledged commit, from its first try's start to its acknowledgement, ms",
  fields: (t) => ({ p50: t.exposeFloat('p50'), p99: t.exposeFloat('p99'), mean: t.exposeFloat('mean') }),
});

const WastedType = builder.objectRef<Point['wasted']>('SweepWasted').implement({
  fields: (t) => ({
    bytes: t.exposeFloat('bytes', { description: 'written by attempts that lost' }),
    files: t.exposeInt('files', { description: 'written by attempts that lost' }),
    orphanFiles: t.exposeInt('orphanFiles', { description: 'data files under the table no version references' }),
  }),
});

const ChecksType = builder.objectRef<Point['checks']>('SweepChecks').implement({
  fields: (t) => ({
    versionsContiguous: t.exposeBoolean('versionsContiguous'),
    exactlyOnce: t.exposeBoolean('exactlyOnce', { description: 'every acknowledged commit in exactly one version' }),
    lost: t.exposeInt('lost'),
    duplicated: t.exposeInt('duplicated'),
    wrongVersion: t.int({
      nullable: true,
      description: 'acknowledged commits found at another version than their writer was told',
      resolve: (c) => c.wrongVersion ?? null,
    }),
    failedPresent: t.int({
      nullable: true,
      description: 'commits their writer saw fail, found in the log',
      resolve: (c) => c.failedPresent ?? null,
    }),
    verdict: t.exposeString('verdict', { description: 'serial or not-serial' }),
    verdictNote: t.exposeString('verdictNote'),
  }),
});

const CompactorType = builder.objectRef<NonNullable<Point['compactor']>>('SweepCompactor').implement({
  description: 'the one compactor of a compaction point',
  fields: (t) => ({
    acknowledged: t.exposeInt('acknowledged'),
    attempts: t.exposeInt('attempts'),
    successPerAttempt: t.exposeFloat('successPerAttempt'),
    failures: t.field({ type: [FailureType], resolve: (c) => c.failures }),
  }),
});

const MeasuredType = builder.objectRef<Point['measured']>('SweepMeasured').implement({
  description: "the forecast's inputs, as measured at this point",
  fields: (t) => ({
    attemptMs: t.field({ type: QuantilesType, resolve: (m) => m.attemptMs }),
    prepareMs: t.field({ type: QuantilesType, resolve: (m) => m.prepareMs }),
    appPauseMs: t.field({ type: QuantilesType, resolve: (m) => m.appPauseMs }),
  }),
});

const PointType = builder.objectRef<Point>('SweepPoint').implement({
  description: 'one N of a sweep',
  fields: (t) => ({
    writers: t.exposeInt('writers'),
    durationMs: t.exposeFloat('durationMs'),
    commits: t.field({ type: CommitsType, resolve: (p) => p.commits }),
    failures: t.field({ type: [FailureType], resolve: (p) => p.failures }),
    attempts: t.field({ type: AttemptsType, resolve: (p) => p.attempts }),
    commitsPerSec: t.exposeFloat('commitsPerSec'),
    latencyMs: t.field({ type: LatencyType, resolve: (p) => p.latencyMs }),
    wasted: t.field({ type: WastedType, resolve: (p) => p.wasted }),
    checks: t.field({ type: ChecksType, resolve: (p) => p.checks }),
    compactor: t.field({ type: CompactorType, nullable: true, resolve: (p) => p.compactor ?? null }),
    measured: t.field({ type: MeasuredType, resolve: (p) => p.measured }),
  }),
});

const ForecastPointType = builder.objectRef<SweepForecast['curve'][number]>('SweepForecastPoint').implement({
  fields: (t) => ({
    writers: t.exposeInt('writers'),
    successPerAttempt: t.exposeFloat('successPerAttempt'),
    exhaustion: t.exposeFloat('exhaustion', { description: 'the share of commits that run out of retries' }),
    commitsPerSec: t.exposeFloat('commitsPerSec'),
  }),
});

const ForecastErrorType = builder.objectRef<SweepForecast['error']>('SweepForecastError').implement({
  description: "the forecast's error against the measured points",
  fields: (t) => ({
    successPerAttemptMeanAbs: t.exposeFloat('successPerAttemptMeanAbs'),
    commitsPerSecMeanRel: t.exposeFloat('commitsPerSecMeanRel'),
  }),
});

const ForecastType = builder.objectRef<SweepForecast>('SweepForecast').implement({
  fields: (t) => ({
    model: t.exposeString('model'),
    curve: t.field({
      type: [ForecastPointType],
      description: 'N = 1 .. the largest N measured',
      resolve: (f) => f.curve,
    }),
    atPoints: t.field({ type: [ForecastPointType], resolve: (f) => f.atPoints }),
    error: t.field({ type: ForecastErrorType, resolve: (f) => f.error }),
  }),
});

const MachineType = builder.objectRef<SweepResults['machine']>('SweepMachine').implement({
  fields: (t) => ({ cores: t.exposeInt('cores'), platform: t.exposeString('platform'), node: t.exposeString('node') }),
});

const ResultsType = builder.objectRef<SweepResults>('SweepResults').implement({
  description: "the lab's SweepResults (contracts/sweep-results.schema.json)",
  fields: (t) => ({
    startedAt: t.exposeString('startedAt'),
    finishedAt: t.exposeString('finishedAt'),
    machine: t.field({ type: MachineType, resolve: (r) => r.machine }),
    store: t.exposeString('store', { description: 'local or s3' }),
    points: t.field({ type: [PointType], resolve: (r) => r.points }),
    forecast: t.field({ type: ForecastType, nullable: true, resolve: (r) => r.forecast }),
  }),
});

export const SweepType = builder.objectRef<Sweep>('Sweep').implement({
  description: 'a sweep: for each N, N writer processes making K commits each on a fresh table',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: RaceStatusEnum, resolve: (s) => s.status }),
    createdAt: t.string({ resolve: (s) => s.createdAt.toISOString() }),
    startedAt: t.string({ nullable: true, resolve: (s) => s.startedAt?.toISOString() ?? null }),
    finishedAt: t.string({ nullable: true, resolve: (s) => s.finishedAt?.toISOString() ?? null }),
    input: t.field({ type: SweepInputType, resolve: (s) => s.input as unknown as SweepInput }),
    onS3: t.boolean({
      description: 'whether its tables live under an s3:// prefix',
      resolve: (s) => s.tableRoot !== null,
    }),
    done: t.exposeInt('done', { description: 'commits ended so far (acknowledged or failed)' }),
    total: t.exposeInt('total', { description: 'commits the sweep makes in all' }),
    writers: t.exposeInt('writers', { nullable: true, description: 'N of the point running now' }),
    reason: t.exposeString('reason', { nullable: true }),
    worker: t.exposeString('worker', { nullable: true }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
    cancelledBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.cancelledBy) }),
    results: t.field({
      type: ResultsType,
      nullable: true,
      description: 'once the sweep is done',
      resolve: (s) => s.results as unknown as SweepResults | null,
    }),
  }),
});
