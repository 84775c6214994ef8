/**
 * The verdict memo (src/oracle/memo.ts) on real Delta tables: a case's second run whose commit order the first
 * replayed gets the very verdict a memo-free oracle gives, without a replay; a run whose base, writers or order
 * differ is never served another's serial result; and the kept copies go when the case ends, also when a run
 * throws. The raced tables are made with the engine (prepareChange, as the writer processes do), one commit
 * after another, and the lab's races with writer processes behind their barrier.
 */
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeltaTable, openIcebergTable, prepareIcebergAppend, readCommit } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WriterSpec } from '../src/cases/catalog';
import { dayPredicate } from '../src/cases/operations';
import { replaySerial } from '../src/formats/delta/replay';
import { deltaVerdict } from '../src/formats/delta/verdict';
import { icebergCopy } from '../src/formats/iceberg/replay';
import { seedIcebergTable } from '../src/formats/iceberg/run';
import { icebergVerdict, racedIcebergState } from '../src/formats/iceberg/verdict';
import { customCase, type RunVerdict, runLab, type WriterResult } from '../src/index';
import { VerdictMemo } from '../src/oracle/memo';
import { RaceCancelledError } from '../src/runner/race';
import { type BaseTables, ensureJan15 } from '../src/tables/base-tables';
import { freshCopy } from '../src/tables/fresh-copy';
import { noTlcDir, SMALL_SCALE, smallBase, tempDir } from './helpers/small-base';
import { writerResult } from './helpers/writer-result';

const work = tempDir('verdict-memo');
let bases: BaseTables;
let rowsFile: (op: WriterSpec['operation']) => string | undefined;
let jan15: string;

beforeAll(async () => {
  const small = await smallBase(work);
  bases = small.tables;
  jan15 = await ensureJan15(work, small.dataset);
  rowsFile = (op) => ('day' in op ? small.dataset.february(op.day) : undefined);
}, 120_000);

const update = (name: string, predicate: string, value: string): WriterSpec => ({
  name,
  operation: { kind: 'update', predicate, set: { tip_amount: value } },
});
/** B1's writers: two rewrites of different vendors' rows. */
const B1: WriterSpec[] = [
  update('vendor1', 'VendorID = 1', 'tip_amount + 1'),
  update('vendor2', 'VendorID = 2', 'tip_amount + 1'),
];

const result = (name: string, version: number | null): WriterResult => writerResult(name, { version });

let made = 0;
const dir = (what: string) => join(work, `${what}-${made++}`);

/** Writer names in log order, as the runner reads them. */
async function logOrder(table: string): Promise<string[]> {
  const t = await DeltaTable.open(table);
  const names: string[] = [];
  for (let v = 1; v <= t.version; v++) {
    const info = (await readCommit(t.store, v)).find((a) => 'commitInfo' in a);
    names.push(String(info && 'commitInfo' in info ? info.commitInfo.writer : `v${v}`));
  }
  return names;
}

/**
 * A raced table of `writers` on `base`: `committed` applied one after another (each on the table the previous
 * left), every writer reporting a commit at the version it would hold were all applied.
 */
async function racedRun(base: string, writers: WriterSpec[], committed: string[], reported = committed) {
  const raced = dir('raced');
  await replaySerial({ base, writers, rowsFile }, committed, raced);
  const results = writers.map((w) => result(w.name, reported.includes(w.name) ? reported.indexOf(w.name) + 1 : null));
  for (const r of results) r.committed = r.version !== null;
  return { raced, results, logOrder: await logOrder(raced) };
}

type Run = Awaited<ReturnType<typeof racedRun>>;

const verdictOf = (base: string, writers: WriterSpec[], run: Run, memo?: VerdictMemo) =>
  deltaVerdict({
    ...run,
    base,
    writers,
    rowsFile,
    copyDir: (i) => `${run.raced}-oracle-${i}`,
    ...(memo && { memo }),
  });

/** A verdict's bytes but its oracleMs, the time it took. */
const bytes = (v: RunVerdict) => JSON.stringify({ ...v, oracleMs: 0 });

const newMemo = () => new VerdictMemo((n) => join(work, `memo-${made++}-${n}`));

describe('the verdict memo on Delta runs', () => {
  it("B1's second run: served from the first run's replay, the same verdict as without a memo", async () => {
    const memo = newMemo();
    try {
      const first = await racedRun(bases.flat, B1, ['vendor1', 'vendor2']);
      const v1 = await verdictOf(bases.flat, B1, first, memo);
      expect(v1.status).toBe('serializable');
      expect(memo.stats()).toMatchObject({ hits: 0, misses: 1 });
      expect(memo.stats().kept).toHaveLength(1);

      const second = await racedRun(bases.flat, B1, ['vendor1', 'vendor2']);
      const v2 = await verdictOf(bases.flat, B1, second, memo);
      // Served: no new replay, the kept one read.
      expect(memo.stats()).toMatchObject({ hits: 1, misses: 1 });
      const free = await verdictOf(bases.flat, B1, second);
      expect(bytes(v2)).toBe(bytes(free));
      expect(v2.oracleMs).toBeGreaterThan(0);
    } finally {
      await memo.dispose();
    }
    expect(memo.stats().kept).toEqual([]);
  }, 120_000);

  it('a run no order explains (a reported commit lost): the same diff, writers and words as without a memo', async () => {
    const memo = newMemo();
    try {
      await verdictOf(bases.flat, B1, await racedRun(bases.flat, B1, ['vendor1', 'vendor2']), memo);
      // vendor2 reports version 2, which the log does not hold: its change is missing from the table.
      const lost = await racedRun(bases.flat, B1, ['vendor1'], ['vendor1', 'vendor2']);
      const hitsBefore = memo.stats().hits;
      const v = await verdictOf(bases.flat, B1, lost, memo);
      expect(memo.stats().hits).toBeGreaterThan(hitsBefore);
      expect(v).toMatchObject({ status: 'not-serializable', rowsMissing: expect.any(Number) });
      expect(v.rowsMissing).toBeGreaterThan(0);
      expect(v.summary).toContain("vendor2's commit lost");
      expect(bytes(v)).toBe(bytes(await verdictOf(bases.flat, B1, lost)));
    } finally {
      await memo.dispose();
    }
  }, 120_000);

  it('another order of writers whose order matters is replayed anew, not served', async () => {
    // Setting VendorID 2's tips to 0 and adding 1 to them end differently in the two orders.
    const writers = [update('zero', 'VendorID = 2', '0'), update('plus', 'VendorID = 2', 'tip_amount + 1')];
    const memo = newMemo();
    try {
      const v1 = await verdictOf(bases.flat, writers, await racedRun(bases.flat, writers, ['zero', 'plus']), memo);
      expect(v1).toMatchObject({ status: 'serializable', order: ['zero', 'plus'] });
      const swapped = await racedRun(bases.flat, writers, ['plus', 'zero']);
      const v2 = await verdictOf(bases.flat, writers, swapped, memo);
      expect(v2).toMatchObject({ status: 'serializable', order: ['plus', 'zero'] });
      expect(memo.stats()).toMatchObject({ hits: 0, misses: 2 });
      expect(bytes(v2)).toBe(bytes(await verdictOf(bases.flat, writers, swapped)));
    } finally {
      await memo.dispose();
    }
  }, 120_000);

  it('another writer operation under the same names is replayed anew, not served', async () => {
    const other = [B1[0] as WriterSpec, update('vendor2', 'VendorID = 6', 'tip_amount + 1')];
    const memo = newMemo();
    try {
      await verdictOf(bases.flat, B1, await racedRun(bases.flat, B1, ['vendor1', 'vendor2']), memo);
      const run = await racedRun(bases.flat, other, ['vendor1', 'vendor2']);
      const v = await verdictOf(bases.flat, other, run, memo);
      expect(v.status).toBe('serializable');
      expect(memo.stats()).toMatchObject({ hits: 0, misses: 2 });
      expect(bytes(v)).toBe(bytes(await verdictOf(bases.flat, other, run)));
    } finally {
      await memo.dispose();
    }
  }, 120_000);

  it('another base table is replayed anew, not served', async () => {
    // The flat table without its 2025-01-15 trips: other rows under the same writers.
    const smaller = dir('smaller-base');
    await replaySerial(
      {
        base: bases.flat,
        writers: [{ name: 'trim', operation: { kind: 'delete', predicate: dayPredicate('2025-01-15') } }],
        rowsFile,
      },
      ['trim'],
      smaller,
    );
    const memo = newMemo();
    try {
      await verdictOf(bases.flat, B1, await racedRun(bases.flat, B1, ['vendor1', 'vendor2']), memo);
      const run = await racedRun(smaller, B1, ['vendor1', 'vendor2']);
      const v = await verdictOf(smaller, B1, run, memo);
      expect(v.status).toBe('serializable');
      expect(memo.stats()).toMatchObject({ hits: 0, misses: 2 });
      expect(bytes(v)).toBe(bytes(await verdictOf(smaller, B1, run)));
    } finally {
      await memo.dispose();
    }
  }, 120_000);

  it('keeps at most its bound of copies, the least recently used going first', async () => {
    const memo = new VerdictMemo((n) => join(work, `bounded-${made++}-${n}`), 1);
    try {
      const zero = [update('zero', 'VendorID = 2', '0'), update('plus', 'VendorID = 2', 'tip_amount + 1')];
      await verdictOf(bases.flat, zero, await racedRun(bases.flat, zero, ['zero', 'plus']), memo);
      const [firstCopy] = memo.stats().kept;
      await verdictOf(bases.flat, zero, await racedRun(bases.flat, zero, ['plus', 'zero']), memo);
      expect(memo.stats().kept).toHaveLength(1);
      expect(memo.stats().kept).not.toContain(firstCopy);
      expect(existsSync(firstCopy as string)).toBe(false);
    } finally {
      await memo.dispose();
    }
  }, 120_000);

  it('a replay that throws leaves no copy behind', async () => {
    const memo = newMemo();
    const session = memo.session();
    let copy = '';
    await expect(
      session.replay(
        'k',
        async (d) => {
          copy = d;
          await freshCopy(bases.flat, d);
          throw new Error('replay broke');
        },
        (d) => rm(d, { recursive: true, force: true }),
      ),
    ).rejects.toThrow('replay broke');
    await session.end();
    expect(copy).not.toBe('');
    expect(existsSync(copy)).toBe(false);
    expect(memo.stats().kept).toEqual([]);
    await memo.dispose();
  });
});

describe('the verdict memo on Iceberg runs', () => {
  const TABLE = 'lab.trips';
  const writers: WriterSpec[] = [
    { name: 'feb01', operation: { kind: 'append', day: '2025-02-01' } },
    { name: 'feb02', operation: { kind: 'append', day: '2025-02-02' } },
  ];

  /** A run as runIcebergCase makes it: a copy of the seed in its own catalog, then both appends, feb01 first. */
  async function icebergRun(seed: string) {
    const runDir = dir('iceberg-run');
    const { catalog, metadataLocation } = await icebergCopy(TABLE, seed, runDir);
    try {
      for (const w of writers) {
        const prepared = await prepareIcebergAppend(
          await openIcebergTable(catalog, TABLE),
          [rowsFile(w.operation) as string],
          { snapshotProperties: { writer: w.name } },
        );
        await prepared.commit();
      }
    } finally {
      await catalog.close();
    }
    return {
      raced: await racedIcebergState(join(runDir, 'catalog.db'), TABLE),
      start: metadataLocation,
      results: writers.map((w) => ({ ...result(w.name, null), operation: 'iceberg-append' })),
      runDir,
    };
  }

  const judge = (run: Awaited<ReturnType<typeof icebergRun>>, memo?: VerdictMemo) =>
    icebergVerdict({
      raced: run.raced,
      table: TABLE,
      start: run.start,
      results: run.results,
      writers,
      rowsFile,
      copyDir: (i) => join(run.runDir, `oracle-${i}`),
      ...(memo && { memo }),
    });

  it("F1's second run (another run folder, the same seed): served, the verdict a memo-free oracle gives", async () => {
    const seed = await seedIcebergTable(dir('iceberg-seed'), jan15, undefined);
    const memo = newMemo();
    try {
      expect(await judge(await icebergRun(seed), memo)).toMatchObject({ status: 'serializable' });
      expect(memo.stats()).toMatchObject({ hits: 0, misses: 1 });
      const second = await icebergRun(seed);
      const v = await judge(second, memo);
      expect(memo.stats()).toMatchObject({ hits: 1, misses: 1 });
      expect(bytes(v)).toBe(bytes(await judge(second)));
      // Another seed (other table metadata) is not served the first one's replay.
      await judge(await icebergRun(await seedIcebergTable(dir('iceberg-seed'), jan15, undefined)), memo);
      expect(memo.stats()).toMatchObject({ hits: 1, misses: 2 });
    } finally {
      await memo.dispose();
    }
    expect(memo.stats().kept).toEqual([]);
  }, 120_000);
});

describe("the memo's lifetime in runLab", () => {
  const race = () =>
    customCase({
      table: 'flat',
      writers: [
        { name: 'vendor1', operation: 'update', predicate: 'VendorID = 1', set: { tip_amount: 'tip_amount + 1' } },
        { name: 'vendor2', operation: 'update', predicate: 'VendorID = 2', set: { tip_amount: 'tip_amount + 1' } },
      ],
    });
  const replayCopies = (root: string) =>
    existsSync(join(root, 'runs')) ? readdirSync(join(root, 'runs')).filter((d) => d.includes('-replay-')) : [];

  it('the kept copies are there between runs and gone after the case, also when a run throws', async () => {
    const root = join(work, 'lab');
    const controller = new AbortController();
    const seenBetweenRuns: string[][] = [];
    const lab = runLab({
      cases: [race()],
      runs: 3,
      scale: SMALL_SCALE,
      workDir: root,
      dataDir: noTlcDir(work),
      signal: controller.signal,
      onProgress: (p) => {
        if (p.kind !== 'run' || !p.result) return;
        seenBetweenRuns.push(replayCopies(root));
        // The second run's cancellation makes runLab throw mid-case, with a copy kept.
        if (p.run === 1) controller.abort();
      },
    });
    await expect(lab).rejects.toBeInstanceOf(RaceCancelledError);
    expect(seenBetweenRuns[0]?.length).toBeGreaterThan(0);
    expect(replayCopies(root)).toEqual([]);
  }, 240_000);
});
