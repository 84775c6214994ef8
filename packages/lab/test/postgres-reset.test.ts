/**
 * The P cases' reset and table check on a real embedded Postgres 18: a run swaps in a copy of trips_original prepared
 * beforehand (or builds one inside the run when none is ready), a copy is whole or absent, and the one-join table
 * check says what the plain queries over every row say, duplicates included once the key is gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type PostgresServer, startPostgresServer, withClient } from '@racelab/pg-server';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { labDatabaseUrl, postgresVerdict, preparePostgresLab, runPostgresCase } from '../src/formats/postgres/index';
import { tableCheck } from '../src/formats/postgres/table-check';
import { buildNextCopy, resetToFreshCopy } from '../src/formats/postgres/trips-copy';
import { racedFingerprint } from '../src/formats/postgres/verdict';
import { TRIPS, VENDOR_TRIPS, writeSmallJanuary } from './helpers/small-january';

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgreset-'));
fs.chmodSync(root, 0o755);
const january = path.join(root, 'january.parquet');
let server: PostgresServer | null = null;

function labUrl(): string {
  if (server === null) throw new Error('the server did not start');
  return labDatabaseUrl(server.url);
}

const onLab = <T>(fn: (c: pg.Client) => Promise<T>) => withClient(labUrl(), fn);

/** The lab database's tables of the trips, and trips's primary key. */
async function tables(c: pg.Client): Promise<{ names: string[]; tripsKey: string | null }> {
  const names = await c.query<{ n: string }>(
    "SELECT relname AS n FROM pg_class WHERE relkind = 'r' AND relname LIKE 'trips%' ORDER BY 1",
  );
  const key = await c.query<{ k: string }>(
    "SELECT conname AS k FROM pg_constraint WHERE conrelid = 'trips'::regclass AND contype = 'p'",
  );
  return { names: names.rows.map((r) => r.n), tripsKey: key.rows[0]?.k ?? null };
}

describe('the P cases reset by swapping in a prepared copy', () => {
  beforeAll(async () => {
    await writeSmallJanuary(january);
    server = await startPostgresServer({ dataDir: path.join(root, 'pg') });
    await preparePostgresLab(server.url, january);
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('the lab is prepared with a copy ready; each run swaps it in, counts the reset, and prepares the next', async () => {
    expect((await onLab(tables)).names).toEqual(['trips', 'trips_next', 'trips_original']);
    for (const run of [1, 2]) {
      const r = await runPostgresCase((server as PostgresServer).url, {
        isolation: 'read committed',
        vendorA: 2,
        vendorB: 2,
        ...(run === 2 && { nextCopy: 'after-verdict' as const }),
      });
      expect(r.resetFromPreparedCopy).toBe(true);
      expect(r.resetMs).toBeGreaterThan(0);
      expect(r.resetMs).toBeLessThanOrEqual(r.durationMs);
      // The writers' clocks start with the reset: A opened after it.
      expect(r.writers[0]?.timings?.opened ?? -1).toBeGreaterThanOrEqual(r.resetMs);
      expect(r.nextCopyMs).toBeGreaterThan(0);
      // +2 on every vendor-2 trip in both runs: the second raced a fresh copy, not the first's table.
      expect(r.table.tipDeltaByVendor).toEqual({ '1': 0, '2': 2 * (VENDOR_TRIPS['2'] as number), '6': 0, '7': 0 });
      expect(r.verdict.status).toBe('serializable');
      expect(await onLab(tables)).toEqual({
        // The table the swap set aside is dropped by the next copy's build.
        names: ['trips', 'trips_next', 'trips_original'],
        tripsKey: 'trips_pkey',
      });
    }
    // The copy waiting for the next run is trips_original's rows, keyed as trips is.
    const next = await onLab(async (c) => {
      const diff = await c.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM (
           (TABLE trips_next EXCEPT ALL TABLE trips_original) UNION ALL (TABLE trips_original EXCEPT ALL TABLE trips_next)) d`,
      );
      const key = await c.query<{ def: string }>(
        "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'trips_next'::regclass AND contype = 'p'",
      );
      return { differing: Number(diff.rows[0]?.n), key: key.rows[0]?.def };
    });
    expect(next).toEqual({ differing: 0, key: 'PRIMARY KEY (trip_id)' });
  });

  it('with no copy ready, the run builds one inside its own time', async () => {
    await onLab((c) => c.query('DROP TABLE trips_next'));
    const r = await runPostgresCase((server as PostgresServer).url, {
      isolation: 'repeatable read',
      vendorA: 2,
      vendorB: 2,
    });
    expect(r.resetFromPreparedCopy).toBe(false);
    expect(r.writers.map((w) => [w.committed, w.sqlState])).toEqual([
      [true, null],
      [false, '40001'],
    ]);
    expect(r.table.tipDeltaByVendor?.['2']).toBe(VENDOR_TRIPS['2']);
    expect((await onLab(tables)).names).toContain('trips_next');
  });

  it('an emptied copy (what a crash leaves of an unlogged table) is rebuilt, not raced', async () => {
    await onLab((c) => c.query('TRUNCATE trips_next'));
    const r = await runPostgresCase((server as PostgresServer).url, {
      isolation: 'read committed',
      vendorA: 1,
      vendorB: 2,
    });
    expect(r.resetFromPreparedCopy).toBe(false);
    expect(r.table.rows).toBe(TRIPS);
    expect(r.writers.map((w) => w.observed)).toEqual([
      { rowsUpdated: VENDOR_TRIPS['1'] },
      { rowsUpdated: VENDOR_TRIPS['2'] },
    ]);
    const persistence = await onLab((c) =>
      c.query<{ relname: string; relpersistence: string }>(
        "SELECT relname, relpersistence FROM pg_class WHERE relname IN ('trips', 'trips_next', 'trips_original') ORDER BY 1",
      ),
    );
    // The copies are unlogged; the source of every copy is not.
    expect(persistence.rows).toEqual([
      { relname: 'trips', relpersistence: 'u' },
      { relname: 'trips_next', relpersistence: 'u' },
      { relname: 'trips_original', relpersistence: 'p' },
    ]);
  });

  it('a copy is whole or absent: a build that fails leaves the prepared one as it was', async () => {
    await onLab(async (c) => {
      await resetToFreshCopy(c);
      await buildNextCopy(c);
      await c.query("COMMENT ON TABLE trips_next IS 'the prepared one'");
      // trips_original without its key and with a trip twice: the copy's primary key cannot be built.
      await c.query('ALTER TABLE trips_original DROP CONSTRAINT trips_original_pkey');
      await c.query('INSERT INTO trips_original SELECT * FROM trips_original WHERE trip_id = 5');
      try {
        await expect(buildNextCopy(c)).rejects.toThrow(/could not create unique index "trips_next_pkey"/);
        const kept = await c.query<{ comment: string | null; n: string }>(
          "SELECT obj_description('trips_next'::regclass, 'pg_class') AS comment, (SELECT count(*) FROM trips_next)::text AS n",
        );
        expect(kept.rows[0]).toEqual({ comment: 'the prepared one', n: String(TRIPS) });
      } finally {
        await c.query(
          'DELETE FROM trips_original WHERE ctid = (SELECT max(ctid) FROM trips_original WHERE trip_id = 5)',
        );
        await c.query('ALTER TABLE trips_original ADD PRIMARY KEY (trip_id)');
      }
    });
  });

  it("the verdict with the raced rows' fingerprint taken on another connection still finds the damage", async () => {
    await onLab(async (c) => {
      await resetToFreshCopy(c);
      await buildNextCopy(c);
      await c.query('UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = 6');
      await c.query('UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = 6');
    });
    const [raced, verdict] = await onLab((other) =>
      onLab(async (c) => {
        const raced = racedFingerprint(other);
        return [
          await raced,
          await postgresVerdict(c, [{ name: 'A', committed: true, vendor: 6 }], ['A'], 'X', {
            racedFingerprint: raced,
          }),
        ];
      }),
    );
    expect(raced).toMatch(new RegExp(`^${TRIPS} -?\\d+ -?\\d+$`));
    expect(verdict).toMatchObject({
      status: 'not-serializable',
      rowsMissing: VENDOR_TRIPS['6'],
      rowsExtra: VENDOR_TRIPS['6'],
      writers: [{ name: 'A', notApplied: false, appliedTwice: true }],
    });
  });

  describe('the table check', () => {
    beforeEach(() => onLab((c) => resetToFreshCopy(c).then(() => buildNextCopy(c))));

    /** The check as plain queries over every row: what the one-join check must agree with. */
    async function plainCheck(c: pg.Client) {
      const delta = 'round((t.tip_amount - o.tip_amount)::numeric, 6)';
      const totals = await c.query<{ n: string; ids: string }>(
        'SELECT count(*)::text AS n, count(DISTINCT trip_id)::text AS ids FROM trips',
      );
      const byVendor = await c.query<{ vendor: string | null; trips: string; delta: string; changed: string }>(
        `SELECT t."VendorID"::text AS vendor, count(*)::text AS trips, coalesce(sum(${delta}), 0)::text AS delta,
                count(*) FILTER (WHERE t.tip_amount IS DISTINCT FROM o.tip_amount)::text AS changed
           FROM trips t LEFT JOIN trips_original o USING (trip_id) GROUP BY t."VendorID"`,
      );
      const values = await c.query<{ d: string }>(
        `SELECT DISTINCT ${delta}::text AS d FROM trips t JOIN trips_original o USING (trip_id)
          WHERE ${delta} <> 0 ORDER BY 1 LIMIT 1000`,
      );
      const per = (f: (r: (typeof byVendor.rows)[number]) => string) =>
        Object.fromEntries(byVendor.rows.map((r) => [r.vendor ?? 'null', Number(f(r))]));
      return {
        rows: Number(totals.rows[0]?.n),
        distinctTripIds: Number(totals.rows[0]?.ids),
        tipDeltaByVendor: per((r) => r.delta),
        tipChangedByVendor: per((r) => r.changed),
        tripsByVendor: per((r) => r.trips),
        tipDeltaValues: values.rows.map((r) => Number(r.d)).sort((a, b) => a - b),
      };
    }

    it('agrees with plain queries on a table changed every way a writer could', async () => {
      const [check, plain] = await onLab(async (c) => {
        await c.query('UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = 2');
        await c.query('UPDATE trips SET tip_amount = tip_amount + 0.1 WHERE "VendorID" = 2 AND trip_id % 3 = 0');
        await c.query('UPDATE trips SET tip_amount = tip_amount - 0.000001 WHERE "VendorID" = 1 AND trip_id < 100');
        await c.query('UPDATE trips SET tip_amount = NULL WHERE trip_id = 28');
        await c.query('UPDATE trips SET "VendorID" = 6 WHERE trip_id = 29');
        await c.query('UPDATE trips SET "VendorID" = NULL WHERE trip_id = 59');
        await c.query('DELETE FROM trips WHERE trip_id IN (0, 1, 2)');
        await c.query(`INSERT INTO trips VALUES (${TRIPS + 5}, 7, 1.5)`);
        return [await tableCheck(c), await plainCheck(c)];
      });
      expect(check).toMatchObject(plain);
      // The changes above, as the check must see them (so that the agreement is not between two wrong answers).
      expect(check.rows).toBe(TRIPS - 2);
      expect(check.tripsByVendor?.null).toBe(1);
      expect(check.tipChangedByVendor?.['2']).toBe(VENDOR_TRIPS['2']);
      expect(check.tipDeltaValues).toEqual([-0.000001, 1, 1.1]);
    });

    it('counts trip ids itself once trips has no primary key, and finds a duplicate', async () => {
      const [keyed, unkeyed] = await onLab(async (c) => {
        const before = await tableCheck(c);
        await c.query('ALTER TABLE trips DROP CONSTRAINT trips_pkey');
        await c.query('INSERT INTO trips SELECT * FROM trips WHERE trip_id = 7');
        return [before, await tableCheck(c)];
      });
      expect(keyed).toMatchObject({ rows: TRIPS, distinctTripIds: TRIPS });
      expect(unkeyed).toMatchObject({ rows: TRIPS + 1, distinctTripIds: TRIPS });
    });
  });
});
