/**
 * The Scaling page's GraphQL documents and the figures it draws, as pure functions of a stored sweep: the series
 * of each plot and the table's rows. The table shows the numbers the lab's CLI prints, from the same results.
 */
import { percent as pct, plural, pointSuccess, sweepTableCells } from '@racelab/contracts';
import { graphql, type ResultOf } from './gql';

const SWEEP_SUMMARY = graphql(`fragment SweepSummary on Sweep {
  id status createdAt finishedAt done total writers reason onS3 startedBy { description } cancelledBy { description }
  input { writers commitsPerWriter operation appendRatePerSec seed tableFormat catalog
    policy { name maxCommitRetries appTries backoff { baseMs capMs jitter } } } }`);

/** A sweep's results as the page draws them: every figure of every point, and the forecast. */
const SWEEP_RESULTS = graphql(`fragment SweepResultsFields on SweepResults {
  startedAt finishedAt store machine { cores platform node }
  points { writers durationMs commitsPerSec
    commits { acknowledged failed intended } failures { message count }
    attempts { total successPerAttempt histogram { attempts commits } }
    latencyMs { p50 p99 mean } wasted { bytes files orphanFiles }
    checks { versionsContiguous exactlyOnce lost duplicated wrongVersion failedPresent verdict verdictNote }
    compactor { acknowledged attempts successPerAttempt failures { message count } } }
  forecast { model curve { writers successPerAttempt exhaustion commitsPerSec }
    atPoints { writers successPerAttempt exhaustion commitsPerSec }
    error { successPerAttemptMeanAbs commitsPerSecMeanRel } } }`);

export const SWEEPS_KEY = 'sweeps';
/** The API lists at most 50. */
export const SWEEPS_SHOWN = 50;
export const SWEEPS_QUERY = graphql('query Sweeps($last: Int!) { sweeps(last: $last) { ...SweepSummary } }', [
  SWEEP_SUMMARY,
]);

export const SWEEP_QUERY = graphql(
  'query Sweep($id: ID!) { sweep(id: $id) { ...SweepSummary results { ...SweepResultsFields } } }',
  [SWEEP_SUMMARY, SWEEP_RESULTS],
);

export const START_SWEEP = graphql(
  'mutation StartSweep($input: StartSweepInput!) { startSweep(input: $input) { ...SweepSummary } }',
  [SWEEP_SUMMARY],
);

export const SWEEP_PROGRESS = graphql(
  'subscription SweepProgress($id: ID!) { sweepProgress(id: $id) { id status done total writers reason } }',
);

export type SweepSummaryView = ResultOf<typeof SWEEP_SUMMARY>;
export type SweepResultsView = ResultOf<typeof SWEEP_RESULTS>;
export type SweepPointView = SweepResultsView['points'][number];
export type SweepView = SweepSummaryView & { results: SweepResultsView | null };
export type StoredSweep = SweepSummaryView & { results: SweepResultsView };

/** A sweep in a few words: what each commit did, under which policy, where. */
/** The table format a sweep wrote, as a series names it (Delta and Iceberg lines share a plot side by side). */
export function formatLabel(input: Pick<SweepSummaryView['input'], 'tableFormat' | 'catalog'>): string {
  return input.tableFormat === 'iceberg' ? `Iceberg (${input.catalog ?? 'sqlite'} catalog)` : 'Delta';
}

export function sweepLabel(s: SweepSummaryView): string {
  const rate = s.input.appendRatePerSec == null ? '' : ` at ${s.input.appendRatePerSec}/s`;
  return `${formatLabel(s.input)} · ${s.input.operation}${rate} · ${policyLabel(s.input.policy)} · K=${s.input.commitsPerWriter}`;
}

export function policyLabel(p: SweepSummaryView['input']['policy']): string {
  if (p.name !== 'custom') return p.name;
  const pause = p.backoff ? `, backoff ${p.backoff.baseMs}–${p.backoff.capMs} ms ${p.backoff.jitter}` : '';
  return `custom (retries ${p.maxCommitRetries}, tries ${p.appTries}${pause})`;
}

/** Line colours, one per sweep in the order picked; readable on white and told apart without red/green alone. */
export const SERIES_COLOURS = ['#2456c5', '#c2571a', '#6b3fa0', '#0f7b6c', '#a3295b', '#5d6b7c'];

export interface PlotPoint {
  x: number;
  y: number;
  /** What a pointer over it says. */
  title: string;
}

export interface Series {
  id: string;
  label: string;
  colour: string;
  points: PlotPoint[];
  /** A forecast: a dashed line without markers. */
  forecast?: boolean;
}

type ResultsPoint = StoredSweep['results']['points'][number];
type CurvePoint = NonNullable<StoredSweep['results']['forecast']>['curve'][number];
type ForecastError = NonNullable<StoredSweep['results']['forecast']>['error'];

/** One figure against N: how a measured point and a forecast point give it, and how each is worded. */
interface Figure {
  measured: (p: ResultsPoint) => number;
  measuredTitle: (p: ResultsPoint) => string;
  forecast: (c: CurvePoint) => number;
  forecastTitle: (c: CurvePoint) => string;
  /** The forecast's error on this figure, as its legend says it. */
  error: (e: ForecastError) => string;
}

/** One measured line per sweep, and its forecast's dashed line (with its error) when it has one. */
function seriesOf(sweeps: readonly StoredSweep[], fig: Figure): Series[] {
  return sweeps.flatMap((s, i) => {
    const colour = SERIES_COLOURS[i % SERIES_COLOURS.length] as string;
    const label = sweepLabel(s);
    const measured: Series = {
      id: s.id,
      label,
      colour,
      points: s.results.points.map((p) => ({ x: p.writers, y: fig.measured(p), title: fig.measuredTitle(p) })),
    };
    const f = s.results.forecast;
    if (!f) return [measured];
    const forecast: Series = {
      id: `${s.id}:forecast`,
      label: `${label}: forecast (${fig.error(f.error)})`,
      colour,
      forecast: true,
      points: f.curve.map((c) => ({ x: c.writers, y: fig.forecast(c), title: fig.forecastTitle(c) })),
    };
    return [measured, forecast];
  });
}

/** Success per attempt vs N, measured and forecast. */
export const successSeries = (sweeps: readonly StoredSweep[]) =>
  seriesOf(sweeps, {
    measured: pointSuccess,
    measuredTitle: (p) =>
      p.compactor
        ? `N=${p.writers}: ${pct(p.compactor.successPerAttempt)} of the compactor's ${plural(p.compactor.attempts, 'attempt')} succeeded`
        : `N=${p.writers}: ${pct(p.attempts.successPerAttempt)} of ${plural(p.attempts.total, 'attempt')} succeeded`,
    forecast: (c) => c.successPerAttempt,
    forecastTitle: (c) =>
      `forecast N=${c.writers}: ${pct(c.successPerAttempt)}, retries exhausted ${pct(c.exhaustion)}`,
    error: (e) => `mean abs. error ${pct(e.successPerAttemptMeanAbs)}`,
  });

/** Commits/s vs N, measured and forecast. */
export const throughputSeries = (sweeps: readonly StoredSweep[]) =>
  seriesOf(sweeps, {
    measured: (p) => p.commitsPerSec,
    measuredTitle: (p) => `N=${p.writers}: ${p.commitsPerSec.toFixed(1)} commits/s`,
    forecast: (c) => c.commitsPerSec,
    forecastTitle: (c) => `forecast N=${c.writers}: ${c.commitsPerSec.toFixed(1)} commits/s`,
    error: (e) => `mean rel. error ${pct(e.commitsPerSecMeanRel)}`,
  });

/**
 * Compaction success vs the append rate it competes with: x = N × appendRatePerSec (appends per second in all),
 * y = the compactor's success per attempt. Compaction sweeps only; a point without a compactor is left out.
 */
export function compactionSeries(sweeps: readonly StoredSweep[]): Series[] {
  return sweeps.flatMap((s, i) => {
    const rate = s.input.appendRatePerSec;
    if (s.input.operation !== 'compaction' || rate == null) return [];
    const points = s.results.points.flatMap((p) =>
      p.compactor
        ? [
            {
              x: p.writers * rate,
              y: p.compactor.successPerAttempt,
              title: `${p.writers} appenders × ${rate}/s: the compactor landed ${p.compactor.acknowledged} of ${s.input.commitsPerWriter}, ${pct(p.compactor.successPerAttempt)} per attempt`,
            },
          ]
        : [],
    );
    return [{ id: s.id, label: sweepLabel(s), colour: SERIES_COLOURS[i % SERIES_COLOURS.length] as string, points }];
  });
}

export { SWEEP_FORECAST_COLUMNS as FORECAST_COLUMNS, SWEEP_TABLE_COLUMNS as TABLE_COLUMNS } from '@racelab/contracts';

export interface PointRow {
  writers: number;
  /** The CLI's cells for this point (contracts' sweepTableCells: the one formatting both use). */
  cells: string[];
  checks: { contiguous: boolean; exactlyOnce: boolean; serial: boolean };
}

/** One row per point: the numbers the CLI prints, formatted as it formats them. */
export function pointRows(results: SweepResultsView): PointRow[] {
  const cells = sweepTableCells(results.points, results.forecast);
  return results.points.map((p, i) => ({
    writers: p.writers,
    cells: cells[i] as string[],
    checks: {
      contiguous: p.checks.versionsContiguous,
      exactlyOnce: p.checks.exactlyOnce,
      serial: p.checks.verdict === 'serial',
    },
  }));
}

/** The point whose checks failed anywhere: a sweep the page flags. */
export const pointFailsChecks = (p: SweepPointView) =>
  !p.checks.versionsContiguous || !p.checks.exactlyOnce || p.checks.verdict !== 'serial';
