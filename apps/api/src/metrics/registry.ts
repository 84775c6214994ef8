/**
 * The metrics, with prom-client, on a registry of their own (no process figures: those would differ between API
 * processes, and the product is one scrape target). Every scrape sets them anew from the database's figures
 * (figures.ts); the one scrape at a time that coalesced.ts lets through is the only writer of their values.
 * Every label takes values from a fixed list, but `worker` (host:pid), bounded by the workers the deployment runs.
 */
import { Gauge, Histogram, Registry } from 'prom-client';
import { OTHER_ERROR_CLASS, WRITER_ERROR_CLASSES } from './error-classes';
import { type Durations, type Figures, JOB_KINDS, RECENT, STATUSES } from './figures';

/** The rows the durations and writer figures are read from. */
const recent = (what: 'races' | 'sweeps') => `the latest ${RECENT.races} ${what} created in the last ${RECENT.hours} h`;
/** Seconds a race or sweep waits for a worker: a free worker takes one within its polling interval. */
const QUEUE_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];
/** Seconds a race or sweep runs: from seconds (a small race) to the work limit's hours. */
const RUN_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200];

export class ProductMetrics {
  readonly registry = new Registry();
  private readonly races = this.gauge('racelab_races', 'Races by status.', ['status']);
  private readonly sweeps = this.gauge('racelab_sweeps', 'Sweeps by status.', ['status']);
  private readonly raceDurations = this.durations('race', 'races');
  private readonly sweepDurations = this.durations('sweep', 'sweeps');
  private readonly writers = this.gauge(
    'racelab_race_writers',
    `Writers in the runs of ${recent('races')}, by outcome: committed, failed (with an error), nothing_to_commit (neither).`,
    ['outcome'],
  );
  private readonly failures = this.gauge(
    'racelab_race_writer_failures',
    `Failed writers in the runs of ${recent('races')}, by their error's class (${OTHER_ERROR_CLASS}: a class docs/api.md does not list).`,
    ['error_class'],
  );
  private readonly queue = this.gauge(
    'racelab_queue_jobs',
    'Jobs in the queue (pg-boss) not yet done, by queue and state: created (waiting), retry, active (taken).',
    ['queue', 'state'],
  );
  private readonly workersLive = this.gauge(
    'racelab_workers_live',
    'Workers with a database session open (pg_stat_activity), on any host.',
  );
  private readonly workerUp = this.gauge(
    'racelab_worker_up',
    'Per worker (host:pid): 1 while it has a database session open; 0 for one that holds a running race or sweep without one (until the reaper fails it).',
    ['worker'],
  );
  private readonly workerRunning = this.gauge(
    'racelab_worker_running',
    'Races and sweeps each worker (host:pid) holds RUNNING.',
    ['worker', 'kind'],
  );

  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []) {
    return new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram(name: string, help: string, buckets: number[]) {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }

  /** A race's or a sweep's two durations: its wait in the queue and its run. */
  private durations(kind: 'race' | 'sweep', plural: 'races' | 'sweeps'): DurationHistograms {
    return {
      queued: this.histogram(
        `racelab_${kind}_queue_wait_seconds`,
        `Seconds from a ${kind}'s creation to a worker taking it (startedAt - createdAt), for those that started of ${recent(plural)}.`,
        QUEUE_BUCKETS,
      ),
      ran: this.histogram(
        `racelab_${kind}_run_seconds`,
        `Seconds a ${kind} ran (finishedAt - startedAt), for those that ended of ${recent(plural)}.`,
        RUN_BUCKETS,
      ),
    };
  }

  /** The metrics' text (Prometheus's format) for `f`. */
  render(f: Figures): Promise<string> {
    for (const g of [this.races, this.sweeps, this.writers, this.failures, this.queue, this.workerUp]) g.reset();
    this.workerRunning.reset();
    for (const status of STATUSES) {
      this.races.set({ status }, f.races[status]);
      this.sweeps.set({ status }, f.sweeps[status]);
    }
    observe(this.raceDurations, f.raceDurations);
    observe(this.sweepDurations, f.sweepDurations);
    for (const [outcome, n] of Object.entries(f.writers)) this.writers.set({ outcome }, n);
    for (const error_class of [...WRITER_ERROR_CLASSES, OTHER_ERROR_CLASS])
      this.failures.set({ error_class }, f.failures.get(error_class) ?? 0);
    for (const { queue, state, jobs } of f.queue) this.queue.set({ queue, state }, jobs);
    this.workersLive.set(f.workers.filter((w) => w.live).length);
    for (const w of f.workers) {
      this.workerUp.set({ worker: w.worker }, w.live ? 1 : 0);
      for (const kind of JOB_KINDS) this.workerRunning.set({ worker: w.worker, kind }, w.running[kind]);
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

interface DurationHistograms {
  queued: Histogram;
  ran: Histogram;
}

function observe({ queued, ran }: DurationHistograms, rows: Durations[]): void {
  for (const h of [queued, ran]) {
    h.reset();
    h.zero({}); // an empty histogram still has its buckets, at 0
  }
  for (const { queued: q, ran: r } of rows) {
    if (q !== null) queued.observe(Math.max(0, q));
    if (r !== null) ran.observe(Math.max(0, r));
  }
}
