/**
 * The report checker's fixture: a tiny data set with its figures counted here in plain JavaScript (independently of
 * the checker's SQL), and a results file that is correct for it, with and without verdicts. Tests plant wrong numbers
 * in a clone of it.
 */
import { join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { messages } from '../../src/report/index';
import type { LabResults, RunResult, RunVerdict, TableCheck, WriterResult } from '../../src/results/types';

const { ADDED, DELETED_READ, NO_RETRIES, COMMIT_FAILED, PG_SERIALIZE } = messages;

interface Trip {
  trip_id: number;
  VendorID: number;
  tpep_pickup_datetime: string;
  trip_distance: number;
  fare_amount: number;
  tip_amount: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

function januaryTrips(): Trip[] {
  return Array.from({ length: 320 }, (_, i) => ({
    trip_id: i,
    VendorID: i % 40 === 5 ? 6 : i % 40 === 17 ? 7 : i % 3 === 0 ? 1 : 2,
    tpep_pickup_datetime: `2025-01-${pad(1 + (i % 31))} ${pad(i % 24)}:15:00`,
    trip_distance: i % 9 === 0 ? 0 : 2.3,
    fare_amount: i % 13 === 0 ? -4.5 : 12,
    tip_amount: (i % 7) * 0.5,
  }));
}

function dayTrips(day: string, count: number): Trip[] {
  return Array.from({ length: count }, (_, i) => ({
    trip_id: 10_000_000 + i,
    VendorID: i % 2 === 0 ? 1 : 2,
    tpep_pickup_datetime: `${day} ${pad(i % 24)}:30:00`,
    trip_distance: 1 + (i % 5),
    fare_amount: 9,
    tip_amount: 1,
  }));
}

const JAN = januaryTrips();
const FEB = {
  '2025-02-01': dayTrips('2025-02-01', 40),
  '2025-02-02': dayTrips('2025-02-02', 30),
  '2025-02-14': dayTrips('2025-02-14', 35),
};

function countBy(trips: Trip[], keep: (t: Trip) => boolean): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of trips) if (keep(t)) out[String(t.VendorID)] = (out[String(t.VendorID)] ?? 0) + 1;
  return out;
}

/** The data set's figures: J January trips, n per VendorID, the outliers, and the trips of each February day. */
export const FIG = {
  J: JAN.length,
  n: countBy(JAN, () => true),
  neg: JAN.filter((t) => t.fare_amount < 0).length,
  zero: JAN.filter((t) => t.trip_distance === 0).length,
  both: JAN.filter((t) => t.fare_amount < 0 && t.trip_distance === 0).length,
  negByVendor: countBy(JAN, (t) => t.fare_amount < 0),
  jan15: JAN.filter((t) => t.tpep_pickup_datetime.startsWith('2025-01-15')).length,
  f1: 40,
  f2: 30,
  f14: 35,
};
const n = (v: string) => FIG.n[v] ?? 0;

async function writeParquet(path: string, trips: Trip[]): Promise<void> {
  const values = trips
    .map(
      (t) =>
        `(${t.trip_id}, ${t.VendorID}, '${t.tpep_pickup_datetime}', ${t.trip_distance}, ${t.fare_amount}, ${t.tip_amount})`,
    )
    .join(',\n');
  await withConnection((c) =>
    c.run(
      `COPY (SELECT CAST(a AS BIGINT) AS trip_id, CAST(b AS INTEGER) AS "VendorID", CAST(c AS TIMESTAMP) AS tpep_pickup_datetime,
                    CAST(d AS DOUBLE) AS trip_distance, CAST(e AS DOUBLE) AS fare_amount, CAST(f AS DOUBLE) AS tip_amount
             FROM (VALUES ${values}) t(a, b, c, d, e, f)) TO '${path}' (FORMAT parquet)`,
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// A results file that is correct for that data.

function won(name: string, operation: string, version: number | null, extra: Partial<WriterResult> = {}): WriterResult {
  return {
    name,
    operation,
    committed: true,
    version,
    attempts: 1,
    commitRetries: version === null ? null : version - 1,
    attemptErrors: [],
    waitedOnLock: null,
    warnings: [],
    errorClass: null,
    errorMessage: null,
    readVersion: version === null ? null : 0,
    ...extra,
  };
}

function lost(
  name: string,
  operation: string,
  errorClass: string,
  errorMessage: string,
  extra: Partial<WriterResult> = {},
): WriterResult {
  return {
    name,
    operation,
    committed: false,
    version: null,
    attempts: 1,
    commitRetries: null,
    attemptErrors: [],
    waitedOnLock: null,
    warnings: [],
    errorClass,
    errorMessage,
    readVersion: 0,
    ...extra,
  };
}

function table(rows: number, extra: Partial<TableCheck> = {}): TableCheck {
  return {
    version: null,
    rows,
    distinctTripIds: rows,
    tripsOnDay: {},
    tipDeltaByVendor: { '1': 0, '2': 0, '6': 0, '7': 0 },
    dataFilesOnDisk: null,
    dataFilesInLog: null,
    ...extra,
  };
}

/** Tip sums as floats would give them: a hair off. */
const sum = (x: number) => x * (1 + 1e-12);

function d1Run(index: number): RunResult {
  const retry = (attempt: number, readVersion: number) => ({
    attempt,
    errorClass: COMMIT_FAILED,
    errorMessage: ADDED,
    readVersion,
  });
  return {
    index,
    commitOrder: ['vendor6', 'vendor7', 'vendor1', 'vendor2'],
    writers: [
      won('vendor1', 'update', 3, { attempts: 2, attemptErrors: [retry(1, 0)], readVersion: 2, commitRetries: 0 }),
      won('vendor2', 'update', 4, {
        attempts: 3,
        attemptErrors: [retry(1, 0), retry(2, 2)],
        readVersion: 3,
        commitRetries: 0,
      }),
      won('vendor6', 'update', 1),
      won('vendor7', 'update', 2, { commitRetries: 1 }),
    ],
    table: table(FIG.J, {
      version: 4,
      tipDeltaByVendor: { '1': sum(n('1')), '2': sum(n('2')), '6': n('6'), '7': n('7') },
      tipDeltaValues: [1],
      tripsOnDay: { '2025-01-15': FIG.jan15, '2025-02-14': 0 },
    }),
  };
}

/**
 * The verdict a correct oracle gives each run of this file: serializable in commit order, except I5 (the update
 * before the append) and E1 (every Feb 14 trip once too often); every loser's rows untouched.
 */
function verdictFor(id: string, r: RunResult): RunVerdict {
  const committed = r.writers
    .filter((w) => w.committed)
    .sort((a, b) => (a.version ?? 0) - (b.version ?? 0))
    .map((w) => w.name);
  const failedWriters = r.writers
    .filter((w) => !w.committed)
    .map((w) => ({ name: w.name, rowsTouched: 1, untouched: true, summary: 'its rows are untouched' }));
  const base = { order: r.commitOrder ?? committed, failedWriters, oracleMs: 12 };
  if (id === 'I5') {
    return {
      ...base,
      status: 'reordered',
      order: ['vendor2', 'append'],
      summary: 'reordered: update before append, as WriteSerializable allows',
    };
  }
  if (id === 'E1') {
    return {
      ...base,
      status: 'not-serializable',
      summary: `${FIG.f14} rows written twice`,
      rowsDuplicated: FIG.f14,
      rowsMissing: 0,
      rowsExtra: 0,
      writers: committed.map((name) => ({ name, notApplied: false, appliedTwice: false })),
      examples: [{ kind: 'duplicated', row: { trip_id: 10_000_000 } }],
    };
  }
  return { ...base, status: 'serializable', summary: 'data OK' };
}

/** A results file correct for the data set in `dataDir`, each run with the verdict a correct oracle gives. */
export function goodResults(dataDir: string, scale = 0.01): LabResults {
  const r = resultsWithoutVerdicts(dataDir, scale);
  for (const k of r.cases) for (const x of k.runs) x.verdict = verdictFor(k.id, x);
  return r;
}

/** As the lab wrote results before it recorded verdicts. */
export function resultsWithoutVerdicts(dataDir: string, scale = 0.01): LabResults {
  const { J, f1, f2, f14 } = FIG;
  return {
    createdAt: '2026-10-03T10:00:00.000Z',
    scale,
    dataSource: 'synthetic',
    versions: { node: process.version, engine: 'test' },
    dataDir,
    cases: [
      {
        id: 'A1',
        runs: [1, 2].map((index) => ({
          index,
          commitOrder: ['feb02', 'feb01'],
          writers: [won('feb01', 'append', 2), won('feb02', 'append', 1)],
          table: table(J + f1 + f2, {
            version: 2,
            tripsOnDay: { '2025-02-01': f1, '2025-02-02': f2, '2025-02-14': 0 },
          }),
        })),
      },
      {
        id: 'A2',
        runs: [
          {
            index: 1,
            writers: [lost('feb01', 'append', COMMIT_FAILED, NO_RETRIES), won('feb02', 'append', 1)],
            table: table(J + f2, { version: 1 }),
          },
        ],
      },
      {
        id: 'B1',
        runs: [1, 2, 3].map((index) => ({
          index,
          writers: [won('vendor1', 'update', 1), lost('vendor2', 'update', COMMIT_FAILED, ADDED)],
          table: table(J, {
            version: 1,
            tipDeltaByVendor: { '1': sum(n('1')), '2': 0, '6': 0, '7': 0 },
            tipChangedByVendor: { '1': n('1'), '2': 0, '6': 0, '7': 0 },
            tipDeltaValues: [1],
            tripsByVendor: { ...FIG.n },
            dataFilesOnDisk: 11,
            dataFilesInLog: 1,
          }),
        })),
      },
      {
        id: 'B2',
        runs: [
          {
            index: 1,
            writers: [won('fare', 'delete', 1), lost('distance', 'delete', COMMIT_FAILED, ADDED)],
            table: table(J - FIG.neg, {
              tripsByVendor: Object.fromEntries(
                Object.entries(FIG.n).map(([v, k]) => [v, k - (FIG.negByVendor[v] ?? 0)]),
              ),
            }),
          },
        ],
      },
      {
        id: 'B3',
        runs: [
          {
            index: 1,
            commitOrder: ['vendor2', 'vendor1'],
            writers: [won('vendor1', 'update', 2), won('vendor2', 'update', 1)],
            table: table(J, {
              version: 2,
              tipDeltaByVendor: { '1': sum(n('1')), '2': sum(n('2')), '6': 0, '7': 0 },
              tipDeltaValues: [1],
            }),
          },
        ],
      },
      {
        id: 'C1',
        runs: [
          {
            index: 1,
            writers: [lost('compact', 'optimize', COMMIT_FAILED, DELETED_READ), won('vendor2', 'update', 1)],
            table: table(J, { tipDeltaByVendor: { '1': 0, '2': n('2'), '6': 0, '7': 0 } }),
          },
        ],
      },
      {
        id: 'C2',
        runs: [
          {
            index: 1,
            writers: [won('compact', 'optimize', 1), lost('vendor2', 'update', COMMIT_FAILED, ADDED)],
            table: table(J),
          },
        ],
      },
      {
        id: 'C3',
        runs: [
          {
            index: 1,
            writers: [lost('compact', 'optimize', COMMIT_FAILED, DELETED_READ), won('vendor2', 'update', 1)],
            table: table(J, { tipDeltaByVendor: { '2': n('2') } }),
          },
        ],
      },
      {
        id: 'I4',
        runs: [
          {
            index: 1,
            writers: [won('append', 'append', 1), lost('vendor2', 'update', COMMIT_FAILED, ADDED)],
            table: table(J + f1, { tripsOnDay: { '2025-02-01': f1 } }),
          },
        ],
      },
      {
        id: 'I5',
        runs: [
          {
            index: 1,
            writers: [won('append', 'append', 1), won('vendor2', 'update', 2)],
            table: table(J + f1, {
              version: 2,
              tripsOnDay: { '2025-02-01': f1 },
              tipDeltaByVendor: { '1': 0, '2': n('2'), '6': 0, '7': 0 },
            }),
          },
        ],
      },
      { id: 'D1', runs: [1, 2].map(d1Run) },
      {
        id: 'E1',
        runs: [
          {
            index: 1,
            writers: [
              won('job1', 'check-then-append', 1, { observed: { '2025-02-14': 0 } }),
              won('job2', 'check-then-append', 2, { observed: { '2025-02-14': 0 } }),
            ],
            table: table(J + 2 * f14, { distinctTripIds: J + f14, tripsOnDay: { '2025-02-14': 2 * f14 } }),
          },
        ],
      },
      {
        id: 'E2',
        runs: [1, 2].map((index) => ({
          index,
          writers: [
            won('job1', 'overwrite', 2, {
              attempts: 2,
              attemptErrors: [{ attempt: 1, errorClass: COMMIT_FAILED, errorMessage: ADDED, readVersion: 0 }],
              readVersion: 1,
              commitRetries: 0,
              filesRemoved: 1,
              filesAdded: 1,
            }),
            won('job2', 'overwrite', 1, { filesRemoved: 0, filesAdded: 1 }),
          ],
          table: table(J + f14, { version: 2, tripsOnDay: { '2025-02-14': f14, '2025-02-01': 0 } }),
        })),
      },
      {
        id: 'F1',
        runs: [
          {
            index: 1,
            writers: [
              won('feb01', 'iceberg-append', null, {
                warnings: ['Commit failed due to a concurrent update, retrying in 0.1 seconds'],
              }),
              won('feb02', 'iceberg-append', null),
            ],
            table: table(FIG.jan15 + f1 + f2, { tipDeltaByVendor: {} }),
          },
        ],
      },
      {
        id: 'F2',
        runs: [
          {
            index: 1,
            writers: [
              won('feb02', 'iceberg-append', null),
              lost(
                'feb01',
                'iceberg-append',
                'CommitFailedException',
                'Requirement failed: branch main has changed: expected id 123, found 456',
                { readVersion: null },
              ),
            ],
            table: table(FIG.jan15 + f2, { tipDeltaByVendor: {} }),
          },
        ],
      },
      {
        id: 'P1',
        runs: [
          {
            index: 1,
            writers: [
              won('A', 'postgres-update', null, { waitedOnLock: false }),
              won('B', 'postgres-update', null, { waitedOnLock: false }),
            ],
            table: table(J, { distinctTripIds: null, tipDeltaByVendor: { '1': n('1'), '2': sum(n('2')) } }),
          },
        ],
      },
      {
        id: 'P2',
        runs: [1, 2].map((index) => ({
          index,
          writers: [
            won('A', 'postgres-update', null, { waitedOnLock: false }),
            won('B', 'postgres-update', null, { waitedOnLock: true }),
          ],
          table: table(J, { distinctTripIds: null, tipDeltaByVendor: { '1': 0, '2': sum(2 * n('2')) } }),
        })),
      },
      {
        id: 'P3',
        runs: [
          {
            index: 1,
            writers: [
              won('A', 'postgres-update', null, { waitedOnLock: false }),
              lost('B', 'postgres-update', 'SerializationFailure', `ERROR: ${PG_SERIALIZE}`, {
                waitedOnLock: true,
                readVersion: null,
              }),
            ],
            table: table(J, { distinctTripIds: null, tipDeltaByVendor: { '2': n('2') } }),
          },
        ],
      },
    ],
  };
}

/** Writes the data set's files into `dataDir`: january.parquet and feb-<day>.parquet for each February day. */
export async function writeReportData(dataDir: string): Promise<void> {
  await writeParquet(join(dataDir, 'january.parquet'), JAN);
  for (const [day, trips] of Object.entries(FEB)) await writeParquet(join(dataDir, `feb-${day}.parquet`), trips);
}
