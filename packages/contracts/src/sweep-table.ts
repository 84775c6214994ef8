/**
 * A sweep's points as the table people read: the lab CLI prints it, the dashboard's /scaling page shows the same
 * cells, so the two never disagree on a number's rounding or a check's word. Structural inputs: the CLI passes
 * SweepResults, the dashboard its GraphQL view of them.
 */

interface TablePoint {
  writers: number;
  commits: { acknowledged: number; failed: number };
  attempts: { successPerAttempt: number; histogram: readonly { attempts: number; commits: number }[] };
  commitsPerSec: number;
  latencyMs: { p50: number; p99: number };
  wasted: { bytes: number; files: number; orphanFiles: number };
  checks: {
    versionsContiguous: boolean;
    exactlyOnce: boolean;
    lost: number;
    duplicated: number;
    wrongVersion?: number | null;
    failedPresent?: number | null;
    verdict: string;
  };
  /** A compaction sweep's compactor. */
  compactor?: { successPerAttempt: number } | null;
}

/**
 * The success per attempt a point is read by: a compaction sweep's is the compactor's (its forecast is, and it is
 * the question such a sweep asks), every other sweep's the writers'.
 */
export const pointSuccess = (p: Pick<TablePoint, 'attempts' | 'compactor'>) =>
  p.compactor ? p.compactor.successPerAttempt : p.attempts.successPerAttempt;

interface TableForecastPoint {
  writers: number;
  successPerAttempt: number;
  exhaustion: number;
  commitsPerSec: number;
}

export const SWEEP_TABLE_COLUMNS = [
  'N',
  'landed/failed',
  'succ/att',
  'att p50/max',
  'commits/s',
  'p50/p99 ms',
  'wasted MB/files',
  'orphans',
  'contig',
  'once',
  'verdict',
] as const;
/** Beside the measured columns when the sweep has a forecast. */
export const SWEEP_FORECAST_COLUMNS = ['fc succ/att', 'fc exhaust', 'fc commits/s'] as const;
/** After the forecast's columns when its points were checked against their bounds: a check like contig's. */
export const SWEEP_HOLDS_COLUMN = 'fc holds';

interface TableForecastHold {
  writers: number;
  successPerAttempt: { low: number; high: number; inside: boolean };
  commitsPerSec: { relError: number; within: boolean };
  holds: boolean;
}

const signed = (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(0)}%`;

/** The forecast check's cell: 'yes', or FAILED naming each bound the forecast lies outside. */
export function forecastHoldCell(h: TableForecastHold | undefined): string {
  if (!h) return '-';
  if (h.holds) return 'yes';
  const why = [
    ...(h.successPerAttempt.inside
      ? []
      : [`succ/att outside ${percent(h.successPerAttempt.low)}-${percent(h.successPerAttempt.high)}`]),
    ...(h.commitsPerSec.within ? [] : [`commits/s ${signed(h.commitsPerSec.relError)}`]),
  ];
  return `FAILED (${why.join('; ')})`;
}

export const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The median and the most attempts an acknowledged commit took ('-' when none landed). */
export function attemptsSpread(histogram: readonly { attempts: number; commits: number }[]): string {
  const counts = [...histogram]
    .sort((a, b) => a.attempts - b.attempts)
    .flatMap((h) => Array<number>(h.commits).fill(h.attempts));
  if (counts.length === 0) return '-';
  return `${counts[Math.ceil(counts.length / 2) - 1]}/${counts.at(-1)}`;
}

/** Why a point is not exactly once: every count of the check, the optional ones only when not zero. */
function onceProblems(c: TablePoint['checks']): string {
  const extra = [
    ...(c.wrongVersion ? [`wrong version ${c.wrongVersion}`] : []),
    ...(c.failedPresent ? [`failed present ${c.failedPresent}`] : []),
  ];
  return [`lost ${c.lost}`, `dup ${c.duplicated}`, ...extra].join(', ');
}

/**
 * Each point's cells, SWEEP_TABLE_COLUMNS then, when there is a forecast, SWEEP_FORECAST_COLUMNS, and
 * SWEEP_HOLDS_COLUMN when the forecast carries its checks.
 */
export function sweepTableCells(
  points: readonly TablePoint[],
  forecast: { atPoints: readonly TableForecastPoint[]; holds?: readonly TableForecastHold[] | null } | null,
): string[][] {
  const byN = new Map((forecast?.atPoints ?? []).map((f) => [f.writers, f]));
  const holds = forecast?.holds ? new Map(forecast.holds.map((h) => [h.writers, h])) : null;
  return points.map((p) => {
    const f = byN.get(p.writers);
    const c = p.checks;
    return [
      String(p.writers),
      `${p.commits.acknowledged}/${p.commits.failed}`,
      percent(pointSuccess(p)),
      attemptsSpread(p.attempts.histogram),
      p.commitsPerSec.toFixed(1),
      `${p.latencyMs.p50}/${p.latencyMs.p99}`,
      `${(p.wasted.bytes / 1e6).toFixed(2)}/${p.wasted.files}`,
      String(p.wasted.orphanFiles),
      c.versionsContiguous ? 'yes' : 'NO',
      c.exactlyOnce ? 'yes' : `NO (${onceProblems(c)})`,
      c.verdict,
      ...(forecast
        ? f
          ? [percent(f.successPerAttempt), percent(f.exhaustion), f.commitsPerSec.toFixed(1)]
          : ['-', '-', '-']
        : []),
      ...(holds ? [forecastHoldCell(holds.get(p.writers))] : []),
    ];
  });
}
