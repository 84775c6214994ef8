/**
 * The verdict memo on the P cases (real embedded Postgres, real runs of runPostgresCase): a second run is judged
 * from the fingerprints the first one's replays left, and gets the verdict a memo-free oracle gives on the same
 * raced table; a case whose statements differ under the same writer names is not served them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  labDatabaseUrl,
  type PostgresCaseSpec,
  postgresVerdict,
  preparePostgresLab,
  runPostgresCase,
} from '../src/formats/postgres/index';
import { VerdictMemo } from '../src/oracle/memo';
import type { RunVerdict } from '../src/results/types';
import { writeSmallJanuary } from './helpers/small-january';

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgmemo-'));
fs.chmodSync(root, 0o755);
const january = path.join(root, 'january.parquet');
let server: PostgresServer;
let client: pg.Client;

beforeAll(async () => {
  await writeSmallJanuary(january);
  server = await startPostgresServer({ dataDir: path.join(root, 'main') });
  await preparePostgresLab(server.url, january);
  client = new pg.Client({ connectionString: labDatabaseUrl(server.url) });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const P1: PostgresCaseSpec = { isolation: 'read committed', vendorA: 1, vendorB: 2 };
const P2: PostgresCaseSpec = { isolation: 'read committed', vendorA: 2, vendorB: 2 };
const P3: PostgresCaseSpec = { isolation: 'repeatable read', vendorA: 2, vendorB: 2 };
const LEVEL = { 'read committed': 'READ COMMITTED', 'repeatable read': 'REPEATABLE READ' };

const newMemo = () => new VerdictMemo(() => path.join(root, 'unused'));
/** A verdict's bytes but its oracleMs, the time it took. */
const bytes = (v: RunVerdict) => JSON.stringify({ ...v, oracleMs: 0 });

/** A run of `spec` with `memo`, and the memo-free verdict on the same raced trips (still in place after the run). */
async function run(spec: PostgresCaseSpec, memo: VerdictMemo) {
  const r = await runPostgresCase(server.url, spec, { memo });
  return { r, free: await postgresVerdict(client, writersOf(spec, r), r.commitOrder, LEVEL[spec.isolation]) };
}

const writersOf = (spec: PostgresCaseSpec, r: Awaited<ReturnType<typeof runPostgresCase>>) => [
  { name: 'A', committed: r.writers[0]?.committed === true, vendor: spec.vendorA },
  { name: 'B', committed: r.writers[1]?.committed === true, vendor: spec.vendorB },
];

describe('the verdict memo on Postgres runs', () => {
  it.each([
    ['P1', P1],
    ['P3', P3],
  ] as const)(
    "%s's second run: served from the first's fingerprints, the verdict a memo-free oracle gives",
    async (_, spec) => {
      const memo = newMemo();
      const first = await run(spec, memo);
      expect(bytes(first.r.verdict)).toBe(bytes(first.free));
      const { misses } = memo.stats();
      expect(misses).toBeGreaterThan(0);
      const second = await run(spec, memo);
      expect(memo.stats()).toMatchObject({ misses, hits: misses });
      expect(bytes(second.r.verdict)).toBe(bytes(second.free));
      await memo.dispose();
    },
  );

  it('P2 after P1 in one memo: the same writer names with other statements are not served', async () => {
    const memo = newMemo();
    await run(P1, memo);
    const before = memo.stats();
    const p2 = await run(P2, memo);
    expect(p2.r.verdict).toMatchObject({ status: 'serializable', order: ['A', 'B'] });
    expect(memo.stats()).toMatchObject({ hits: before.hits });
    expect(memo.stats().misses).toBeGreaterThan(before.misses);
    expect(bytes(p2.r.verdict)).toBe(bytes(p2.free));
    await memo.dispose();
  });

  it('the same names and scope with other statements: not served (B updates VendorID 1 here, 2 before)', async () => {
    const { r } = await run(P1, newMemo());
    const memo = newMemo();
    const judge = (writers: { name: string; committed: boolean; vendor: number }[], m?: VerdictMemo) =>
      postgresVerdict(client, writers, r.commitOrder, 'READ COMMITTED', m ? { memo: m } : {});
    const asRaced = writersOf(P1, r);
    expect(await judge(asRaced, memo)).toMatchObject({ status: 'serializable' });
    // The scope is VendorIDs 1 and 2 again (C's), but the committed A and B both update VendorID 1.
    const other = [
      { name: 'A', committed: true, vendor: 1 },
      { name: 'B', committed: true, vendor: 1 },
      { name: 'C', committed: false, vendor: 2 },
    ];
    const v = await judge(other, memo);
    expect(v.status).toBe('not-serializable');
    expect(bytes(v)).toBe(bytes(await judge(other)));
    await memo.dispose();
  });

  it('a table no order explains: the same differences and writer effects with the memo as without', async () => {
    const { r } = await run(P1, newMemo());
    // B's update applied a second time behind the race's back.
    await client.query('UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = 2');
    const memo = newMemo();
    const judge = (m?: VerdictMemo) =>
      postgresVerdict(client, writersOf(P1, r), r.commitOrder, 'READ COMMITTED', m ? { memo: m } : {});
    const free = await judge();
    expect(free).toMatchObject({
      status: 'not-serializable',
      writers: [
        { name: 'A', notApplied: false, appliedTwice: false },
        { name: 'B', notApplied: false, appliedTwice: true },
      ],
    });
    expect(bytes(await judge(memo))).toBe(bytes(free));
    const { misses } = memo.stats();
    expect(bytes(await judge(memo))).toBe(bytes(free));
    expect(memo.stats()).toMatchObject({ misses, hits: misses });
    await memo.dispose();
  });
});
