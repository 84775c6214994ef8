/**
 * The Postgres contrast (P1–P3) on a real embedded Postgres 18 (@racelab/pg-server, whose own tests cover starting,
 * stopping and roles), with a small January file made here. The expected outcomes live in this file only: the code
 * under test just runs the writers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, type PostgresServer, processAlive, startPostgresServer, withClient } from '@racelab/pg-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LAB_DATABASE,
  labDatabaseUrl,
  type PostgresCaseResult,
  postgresServerVersion,
  postgresTableCheck,
  postgresVerdict,
  preparePostgresLab,
  resetPostgresLab,
  runPostgresCase,
} from '../src/formats/postgres/index';
import { TRIPS, VENDOR_TRIPS, writeSmallJanuary } from './helpers/small-january';

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgtest-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'main');
const january = path.join(root, 'january.parquet');

const SERIALIZATION = 'could not serialize access due to concurrent update';

let server: PostgresServer | null = null;

function zeroDeltas(): Record<string, number> {
  return Object.fromEntries(Object.keys(VENDOR_TRIPS).map((v) => [v, 0]));
}

function mainServer(): PostgresServer {
  if (server === null) throw new Error('the server did not start');
  return server;
}

function expectBaseWriters(r: PostgresCaseResult): void {
  expect(r.writers.map((w) => w.name)).toEqual(['A', 'B']);
  for (const w of r.writers) {
    expect(w).toMatchObject({
      operation: 'postgres-update',
      version: null,
      attempts: 1,
      commitRetries: null,
      attemptErrors: [],
      warnings: [],
    });
  }
  expect(r.writers[0]).toMatchObject({ committed: true, errorClass: null, errorMessage: null, waitedOnLock: null });
  expect(r.table).toMatchObject({
    version: null,
    rows: TRIPS,
    distinctTripIds: TRIPS,
    tripsOnDay: {},
    tripsByVendor: VENDOR_TRIPS,
    dataFilesOnDisk: null,
    dataFilesInLog: null,
  });
}

describe('the P cases on an embedded Postgres', () => {
  beforeAll(async () => {
    await writeSmallJanuary(january);
    server = await startPostgresServer({ dataDir });
  });

  afterAll(async () => {
    await server?.stop();
    if (server !== null) expect(processAlive(server.pid)).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('loads January once with COPY; a second prepare skips the load', async () => {
    const url = mainServer().url;
    const first = await preparePostgresLab(url, january);
    expect(first).toMatchObject({ loaded: true, rows: TRIPS });
    expect(first.url).toMatch(/\/racelab_lab$/);
    expect(first.serverVersion).toMatch(/^18\./);
    expect(await postgresServerVersion(url)).toBe(first.serverVersion);
    console.info(`load of ${TRIPS} rows: ${first.loadMs} ms`);
    const second = await preparePostgresLab(url, january);
    expect(second).toMatchObject({ loaded: false, rows: TRIPS, fingerprint: first.fingerprint, loadMs: 0 });
    const check = await postgresTableCheck(url);
    expect(check.tipDeltaByVendor).toEqual(zeroDeltas());
    expect(check.tripsByVendor).toEqual(VENDOR_TRIPS);
  });

  it.each([1, 2])('P1 (run %i): different rows, read committed: B never waits, both commit', async () => {
    const t0 = performance.now();
    const r = await runPostgresCase(mainServer().url, { isolation: 'read committed', vendorA: 1, vendorB: 2 });
    console.info(`P1 run: ${(performance.now() - t0).toFixed(0)} ms, ${r.watchPolls} polls`);
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({ committed: true, waitedOnLock: false, errorClass: null, sqlState: null });
    expect(r.writers[0]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['1'] });
    expect(r.writers[1]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['2'] });
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '1': 700, '2': 2000 });
    expect(r.table.tipChangedByVendor).toEqual({ '1': 700, '2': 2000, '6': 0, '7': 0 });
    expect(r.table.tipDeltaValues).toEqual([1]);
    expect(r.commitOrder).toEqual(['A', 'B']);
    expect(r.verdict).toMatchObject({
      status: 'serializable',
      order: ['A', 'B'],
      summary: 'data OK',
      failedWriters: [],
    });
    console.info(`P1 oracle: ${r.verdict.oracleMs} ms (run ${r.durationMs} ms)`);
  });

  it.each([1, 2])('P2 (run %i): same rows, read committed: B waits, then both land (+2 per trip)', async () => {
    const t0 = performance.now();
    const r = await runPostgresCase(mainServer().url, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    console.info(`P2 run: ${(performance.now() - t0).toFixed(0)} ms, ${r.watchPolls} polls`);
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({ committed: true, waitedOnLock: true, errorClass: null, sqlState: null });
    expect(r.writers[1]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['2'] });
    // 2 × the vendor-2 trips, not 4×: the run started from reset tips.
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '2': 2 * 2000 });
    expect(r.table.tipChangedByVendor).toEqual({ '1': 0, '2': 2000, '6': 0, '7': 0 });
    expect(r.table.tipDeltaValues).toEqual([2]);
    expect(r.verdict).toMatchObject({ status: 'serializable', order: ['A', 'B'], summary: 'data OK' });
  });

  it.each([1, 2])('P3 (run %i): same rows, repeatable read: B waits, then fails to serialize', async () => {
    const r = await runPostgresCase(mainServer().url, { isolation: 'repeatable read', vendorA: 2, vendorB: 2 });
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({
      committed: false,
      waitedOnLock: true,
      errorClass: 'SerializationFailure',
      sqlState: '40001',
      errorMessage: SERIALIZATION,
    });
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '2': 2000 });
    expect(r.table.tipDeltaValues).toEqual([1]);
    expect(r.commitOrder).toEqual(['A']);
    expect(r.verdict).toMatchObject({
      status: 'serializable',
      order: ['A'],
      summary: 'data OK',
      failedWriters: [
        {
          name: 'B',
          rowsTouched: VENDOR_TRIPS['2'],
          untouched: true,
          summary: "B's update failed: its 2,000 rows of VendorID 2 are untouched by it",
        },
      ],
    });
  });

  describe('the oracle on a table the writers did not leave as they said', () => {
    /** Resets the tips, runs `tamper` on trips, and asks for the verdict on what the writers claim. */
    async function verdictAfter(tamper: string[], writers: { name: string; committed: boolean; vendor: number }[]) {
      const url = labDatabaseUrl(mainServer().url);
      await resetPostgresLab(mainServer().url);
      return withClient(url, async (c) => {
        for (const sql of tamper) await c.query(sql);
        const names = writers.filter((w) => w.committed).map((w) => w.name);
        return postgresVerdict(c, writers, names, 'READ COMMITTED');
      });
    }
    const plusOne = (vendor: number) => `UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = ${vendor}`;

    it('a committed update missing from the table: not serializable, its change not applied', async () => {
      const v = await verdictAfter([], [{ name: 'A', committed: true, vendor: 7 }]);
      expect(v).toMatchObject({
        status: 'not-serializable',
        order: ['A'],
        rowsDuplicated: 0,
        rowsMissing: 200,
        rowsExtra: 200,
        summary: '200 rows missing, 200 rows no serial order writes',
        writers: [{ name: 'A', notApplied: true, appliedTwice: false }],
      });
      expect(v.examples?.filter((e) => e.kind === 'missing')).toHaveLength(5);
      expect(v.examples?.[0]?.row).toMatchObject({ VendorID: 7 });
    });

    it('an update applied twice, and a failed writer whose change leaked in', async () => {
      const twice = await verdictAfter(
        [plusOne(6), plusOne(6)],
        [
          { name: 'A', committed: true, vendor: 6 },
          { name: 'B', committed: false, vendor: 7 },
        ],
      );
      expect(twice.status).toBe('not-serializable');
      expect(twice.writers).toEqual([{ name: 'A', notApplied: false, appliedTwice: true }]);
      expect(twice.failedWriters).toEqual([
        {
          name: 'B',
          rowsTouched: 200,
          untouched: true,
          summary: "B's update failed: its 200 rows of VendorID 7 are untouched by it",
        },
      ]);
      const leaked = await verdictAfter(
        [plusOne(6), plusOne(7)],
        [
          { name: 'A', committed: true, vendor: 6 },
          { name: 'B', committed: false, vendor: 7 },
        ],
      );
      expect(leaked).toMatchObject({ status: 'not-serializable', rowsMissing: 200, rowsExtra: 200 });
      expect(leaked.failedWriters[0]).toMatchObject({ rowsTouched: 200, untouched: false });
    });

    it("a row no writer can touch, changed: not serializable (the copy holds only the writers' vendors)", async () => {
      const v = await verdictAfter(
        [
          'UPDATE trips SET tip_amount = tip_amount + 5 WHERE trip_id = (SELECT min(trip_id) FROM trips WHERE "VendorID" = 1)',
        ],
        [{ name: 'A', committed: false, vendor: 6 }],
      );
      expect(v).toMatchObject({ status: 'not-serializable', rowsMissing: 1, rowsExtra: 1, rowsDuplicated: 0 });
      expect(v.examples?.map((e) => e.row.VendorID)).toEqual([1, 1]);
    });
  });

  it('reset puts every tip back', async () => {
    const url = mainServer().url;
    await runPostgresCase(url, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    expect((await postgresTableCheck(url)).tipDeltaByVendor?.['2']).toBe(4000);
    expect(await resetPostgresLab(url)).toBe(2000);
    const after = await postgresTableCheck(url);
    expect(after.tipDeltaByVendor).toEqual(zeroDeltas());
    expect(after.tipDeltaValues).toEqual([]);
    expect(await resetPostgresLab(url)).toBe(0);
  });

  it('runPostgresCase where nothing listens: ECONNREFUSED, quickly', async () => {
    const port = await findFreePort();
    const t0 = performance.now();
    await expect(
      runPostgresCase(`postgresql://postgres:x@127.0.0.1:${port}/postgres`, {
        isolation: 'read committed',
        vendorA: 1,
        vendorB: 2,
      }),
    ).rejects.toThrow(/cannot connect to Postgres at 127\.0\.0\.1:\d+\/racelab_lab .*ECONNREFUSED/);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("the lab database's own role runs a case on the tables the superuser loaded", async () => {
    // racelab_lab exists already, made by the superuser (the tests above): its tables are handed over.
    const lab = await mainServer().ownerUrl(LAB_DATABASE);
    expect(new URL(lab).username).toBe(LAB_DATABASE);
    const r = await runPostgresCase(lab, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    expect(r.writers.map((w) => w.committed)).toEqual([true, true]);
    expect(await preparePostgresLab(lab, january)).toMatchObject({ loaded: false, url: lab });
  });
});
