/**
 * The one conflict simulation against the lab's measurements: for every preset pair (each Delta
 * case of two writers) and both commit orders, the forecast of each writer's fate (committed or
 * not, at which version, after how many attempts and commit retries, refused with which text, with
 * how many files removed and added) equals what the lab recorded for every run in that order.
 *
 * The measurements: the full-scale runs in docs/lab-results.json, where a run of any case with the
 * same two changes (the same table, properties and writers, startAfter aside) counts for the order
 * its commits landed in, so C3's runs are C2's pair in the other order. An order no recorded run
 * has is measured here, by the real lab (runLab, real writer processes) at scale 0.01 with that
 * order forced through startAfter: a recorded file would go stale without a sound when the engine's
 * commit path changes, a run here cannot. The forecasts read the facts of the 0.01 base tables,
 * which keep the full-scale layout by construction (data/figures.ts: nine flat files, VendorID 7
 * in files 1–7 and 6 in 8–9, partitions of 2, 7, 1 and 1 files).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WriterForecast } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { CASES, type DeltaCase, type WriterSpec } from '../src/cases/catalog';
import type { Dataset } from '../src/data/index';
import { forecastConflict } from '../src/forecast/conflict-forecast';
import { onBaseTable } from '../src/formats/registry';
import { runLab } from '../src/lab';
import type { LabResults, RunResult, WriterResult } from '../src/results/types';
import type { BaseTables } from '../src/tables/base-tables';
import { freshCopy } from '../src/tables/fresh-copy';
import { noTlcDir, SMALL_SCALE, smallBase, tempDir } from './helpers/small-base';

const RECORDED: LabResults = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../docs/lab-results.json'), 'utf8'),
) as LabResults;

// The simulation models a store that answers every put truthfully: the cases of a suite (H1 on a lying store, G1
// losing an answer on purpose) are not its presets.
const PRESETS: DeltaCase[] = CASES.flatMap((c) => {
  const d = onBaseTable(c);
  return d && d.writers.length === 2 && d.suite === undefined ? [d] : [];
});

interface Order {
  preset: DeltaCase;
  first: WriterSpec;
  second: WriterSpec;
}
const ORDERS: Order[] = PRESETS.flatMap((preset) => {
  const [a, b] = preset.writers as [WriterSpec, WriterSpec];
  return [
    { preset, first: a, second: b },
    { preset, first: b, second: a },
  ];
});
const label = (o: Order) => `${o.preset.id}: ${o.first.name} commits, then ${o.second.name}`;

/** JSON with every object's keys in order, so equal values print alike. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

/** The pair as a value: the table, its properties, and each writer's change and retry settings (startAfter aside). */
function pairKey(c: DeltaCase): string {
  const writers = c.writers.map(({ startAfter: _, ...w }) => w).sort((x, y) => (x.name < y.name ? -1 : 1));
  return canonical([c.table, c.properties ?? {}, writers]);
}

/** Recorded runs of the same pair whose first commit was `first`'s. */
function recordedRuns(o: Order): RunResult[] {
  const key = pairKey(o.preset);
  const same = PRESETS.filter((c) => pairKey(c) === key).map((c) => c.id);
  return RECORDED.cases
    .filter((c) => same.includes(c.id))
    .flatMap((c) => c.runs)
    .filter((r) => r.commitOrder?.[0] === o.first.name);
}

/** The preset with `first` released at the barrier and `second` started after it committed. */
function forced(o: Order, i: number): DeltaCase {
  const { startAfter: _, ...first } = o.first;
  return { ...o.preset, id: `${o.preset.id}-order-${i}`, writers: [first, { ...o.second, startAfter: first.name }] };
}

/** What the lab records of a writer, in the terms both sides share. */
type Fate = Pick<
  WriterForecast,
  'name' | 'committed' | 'nothingToCommit' | 'version' | 'attempts' | 'commitRetries'
> & {
  attemptErrors: { message: string; readVersion: number | null }[];
  errorMessage: string | null;
  filesRemoved?: number | null;
  filesAdded?: number | null;
};

const measuredFate = (w: WriterResult, files: boolean): Fate => ({
  name: w.name,
  committed: w.committed,
  nothingToCommit: w.warnings.includes('nothing to commit'),
  version: w.version,
  attempts: w.attempts,
  commitRetries: w.commitRetries,
  attemptErrors: w.attemptErrors.map((e) => ({ message: e.errorMessage, readVersion: e.readVersion ?? null })),
  errorMessage: w.errorMessage,
  ...(files && { filesRemoved: w.filesRemoved ?? null, filesAdded: w.filesAdded ?? null }),
});

/** The forecast's files are compared wherever it gives them: everywhere but after a redo. */
const forecastFate = (f: WriterForecast): Fate => ({
  name: f.name,
  committed: f.committed,
  nothingToCommit: f.nothingToCommit,
  version: f.version,
  attempts: f.attempts,
  commitRetries: f.commitRetries,
  attemptErrors: f.attemptErrors.map((e) => ({ message: e.message, readVersion: e.readVersion })),
  errorMessage: f.error?.message ?? null,
  ...(f.filesRemoved !== null || !f.committed ? { filesRemoved: f.filesRemoved, filesAdded: f.filesAdded } : {}),
});

const work = tempDir('simulation-vs-lab');
let dataset: Dataset;
let tables: BaseTables;
/** Per order, the runs that measure it: recorded at full scale, or raced here at 0.01. */
const measured = new Map<Order, { scale: number; runs: RunResult[] }>();

beforeAll(async () => {
  ({ dataset, tables } = await smallBase(work));
  const missing = ORDERS.filter((o) => recordedRuns(o).length === 0);
  for (const o of ORDERS) if (!missing.includes(o)) measured.set(o, { scale: RECORDED.scale, runs: recordedRuns(o) });
  // One lab session for every order never recorded, on the same data set and base tables as the forecasts.
  if (missing.length === 0) return;
  const raced = await runLab({
    cases: missing.map(forced),
    runs: 1,
    scale: SMALL_SCALE,
    workDir: work,
    dataDir: noTlcDir(work),
  });
  missing.forEach((o, i) => {
    measured.set(o, { scale: SMALL_SCALE, runs: raced.cases[i]?.runs ?? [] });
  });
}, 900_000);

describe('the one simulation forecasts what the lab measures', () => {
  it('covers every preset pair of two Delta writers in both orders, each measured', () => {
    expect(PRESETS.map((c) => c.id).join(' ')).toBe('A1 A2 B1 B2 B3 C1 C2 C3 I1 I2 I3 I4 I5 I6 E1 E2');
    expect(ORDERS).toHaveLength(32);
    for (const o of ORDERS) expect(measured.get(o)?.runs.length, label(o)).toBeGreaterThan(0);
    // The recorded file was made at full scale; what it lacks was raced here.
    expect(RECORDED.scale).toBe(1);
  });

  for (const order of ORDERS) {
    it(label(order), async () => {
      const { runs, scale } = measured.get(order) ?? { runs: [], scale: 0 };
      const table = join(work, `forecast-${order.preset.id}-${order.first.name}`);
      await freshCopy(tables[order.preset.table as 'flat' | 'partitioned'], table, {
        ...(order.preset.properties && { properties: order.preset.properties }),
      });
      const forecast = await forecastConflict({ table, first: order.first, second: order.second, dataset });
      const fates = [forecastFate(forecast.first), forecastFate(forecast.second)];
      const withFiles = fates.map((f) => 'filesRemoved' in f);
      for (const run of runs) {
        expect(run.commitOrder?.[0], `${label(order)}, run ${run.index} at scale ${scale}`).toBe(order.first.name);
        const writer = (name: string) => run.writers.find((w) => w.name === name) as WriterResult;
        expect(
          [
            measuredFate(writer(order.first.name), withFiles[0] === true),
            measuredFate(writer(order.second.name), withFiles[1] === true),
          ],
          `${label(order)}, run ${run.index} at scale ${scale}`,
        ).toEqual(fates);
      }
      // The forecast's delta-rs line is the engine the lab runs: it says what the forecast itself says.
      expect(forecast.byEngine[0]).toMatchObject({
        engine: 'delta-rs',
        commits: forecast.second.committed || forecast.second.nothingToCommit,
        message: forecast.message,
      });
      // Files go uncompared only for a writer that committed in a redo.
      for (const [i, f] of [forecast.first, forecast.second].entries()) {
        if (!withFiles[i]) expect(f.attempts).toBeGreaterThan(1);
      }
    });
  }
});
