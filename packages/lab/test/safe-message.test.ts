/**
 * Error text that is stored and shown to clients: the engine's own messages, from
 * real commits that lost, pass byte for byte; DuckDB's and Node's errors, made for real, lose their SQL,
 * stack and absolute paths; a writer process that fails at run time stores only the safe text; and
 * making text safe twice changes nothing, so stored rows can be made safe again when read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CONFLICT_MESSAGES,
  CommitFailedError,
  conflictError,
  DeltaTable,
  deleteRows,
  prepareDelete,
  prepareUpdate,
  type StructType,
  withConnection,
  writeDeltaTable,
} from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientSafeMessage, MAX_SAFE_MESSAGE, type NamedRoot, namedRoots } from '../src/results/safe-message';
import { race } from '../src/runner/race';
import { tempDir } from './helpers/small-base';

const work = tempDir('safe-message');
const roots: NamedRoot[] = namedRoots({ workDir: work });

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'v', type: 'long', nullable: true, metadata: {} },
  ],
};
const rows = (...ids: number[]) => ({ kind: 'rows' as const, schema: SCHEMA, rows: ids.map((id) => ({ id, v: id })) });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

async function duckdbError(sql: string): Promise<Error> {
  return failure(withConnection((c) => c.runAndReadAll(sql)));
}

/** The text as stored, then as read back with other roots (or none): all the same. */
function expectIdempotent(text: string): void {
  expect(clientSafeMessage(text, { roots })).toBe(text);
  expect(clientSafeMessage(text)).toBe(text);
}

function expectNoServerFolder(text: string): void {
  expect(text).not.toContain(work);
  expect(text).not.toMatch(/(^|[\s'"(=])\/(tmp|work|root|home)\b/);
}

describe("the engine's messages", () => {
  const lost: CommitFailedError[] = [];

  beforeAll(async () => {
    // Real commits that lose, on a real table: each loser read version 0 or 1 and a winner moved on.
    const table = join(work, 'commits');
    await writeDeltaTable(table, rows(1, 2));
    const [a, b] = [await DeltaTable.open(table), await DeltaTable.open(table)];
    const first = await prepareDelete(a, 'id = 1');
    const second = await prepareUpdate(b, { predicate: 'id = 1', set: { v: 'v + 2' } });
    const noRetries = await prepareUpdate(await DeltaTable.open(table), { set: { v: 'v' } }, { maxCommitRetries: 0 });
    await first?.commit();
    lost.push((await failure(second?.commit() ?? Promise.resolve())) as CommitFailedError);
    lost.push((await failure(noRetries?.commit() ?? Promise.resolve())) as CommitFailedError);
    const reader = await prepareUpdate(await DeltaTable.open(table), { predicate: 'id >= 2', set: { v: 'v' } });
    await writeDeltaTable(table, rows(3), { mode: 'append' });
    lost.push((await failure(reader?.commit() ?? Promise.resolve())) as CommitFailedError);
    const appendOnly = join(work, 'append-only');
    await writeDeltaTable(appendOnly, rows(1), { configuration: { 'delta.appendOnly': 'true' } });
    lost.push((await failure(deleteRows(await DeltaTable.open(appendOnly), 'id = 1'))) as CommitFailedError);
    // The texts no real race above produces, through the engine's own constructor.
    for (const [kind, message] of Object.entries(CONFLICT_MESSAGES)) {
      lost.push(
        conflictError({ kind: kind as keyof typeof CONFLICT_MESSAGES, check: 'metadata', message, winnerVersion: 1 }),
      );
    }
    const protocol = 'Protocol changed since last commit: required read/write 3/7, current read/write 1/2';
    lost.push(conflictError({ kind: 'ProtocolChanged', check: 'protocol', message: protocol, winnerVersion: 1 }));
  });

  it('come from real lost commits, with no server folder in them', () => {
    expect(lost.every((e) => e instanceof CommitFailedError)).toBe(true);
    expect(lost.slice(0, 4).map((e) => e.message.split('\n')[0])).toEqual([
      'Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.',
      'Failed to commit transaction: 0',
      'Failed to commit transaction: Commit failed: a concurrent transactions added new data.',
      'The transaction includes Remove action with data change but Delta table is append-only',
    ]);
    for (const e of lost) expectNoServerFolder(e.message);
  });

  it('pass byte for byte, with or without roots, as errors or as stored text', () => {
    for (const e of lost) {
      expect(clientSafeMessage(e, { roots })).toBe(e.message);
      expect(clientSafeMessage(e)).toBe(e.message);
      expectIdempotent(e.message);
    }
  });

  it('name a table by its place under a root, not by its absolute path', async () => {
    const e = await failure(DeltaTable.open(join(work, 'not-a-table')));
    expect(e.message).toContain(work);
    expect(clientSafeMessage(e, { roots })).toBe(
      '$LAB_WORK_DIR/not-a-table is not a Delta table: no commits in _delta_log/',
    );
    expect(clientSafeMessage(e)).toBe('…/not-a-table is not a Delta table: no commits in _delta_log/');
  });

  it('leave s3:// locations alone', () => {
    const text = 'S3 failed to get s3://lab-bucket/runs/B1-1/_delta_log/00000000000000000001.json: SlowDown (HTTP 503)';
    expectIdempotent(text);
  });
});

describe('DuckDB errors', () => {
  it('keep their type and first line; the SQL and the folders of the files it read go', async () => {
    const bad = join(work, 'feb-2025-02-01.parquet');
    writeFileSync(bad, 'not parquet');
    const e = await duckdbError(`SELECT count(*) FROM read_parquet(['${bad}'])`);
    expect(e.message).toContain('LINE 1: SELECT count(*) FROM read_parquet');
    const safe = clientSafeMessage(e, { roots });
    expect(safe).toBe(
      "DuckDB could not run a query: Invalid Input Error: File '$LAB_WORK_DIR/feb-2025-02-01.parquet' too small to be a Parquet file",
    );
    expect(clientSafeMessage(e)).toBe(
      "DuckDB could not run a query: Invalid Input Error: File '…/feb-2025-02-01.parquet' too small to be a Parquet file",
    );
    expectIdempotent(safe);
  });

  it('drop the LINE marker and the statement after it, and detail lines', async () => {
    const overflow = await duckdbError('SELECT CAST(9999999999 AS INTEGER)');
    expect(clientSafeMessage(overflow)).toBe(
      "DuckDB could not run a query: Conversion Error: Type INT64 with value 9999999999 can't be cast because the value is out of range for the destination type INT32",
    );
    const binder = await duckdbError('SELECT nosuchcol FROM range(3)');
    expect(binder.message).toContain('Candidate bindings');
    const safe = clientSafeMessage(binder);
    expect(safe).toBe(
      'DuckDB could not run a query: Binder Error: Referenced column "nosuchcol" not found in FROM clause!',
    );
    expectIdempotent(safe);
  });

  it('cut a statement quoted in running text, and the paths in it', () => {
    const text = `checkpoint not written: COPY (SELECT * FROM read_parquet(['${work}/a.parquet'])) TO '${work}/b.parquet'`;
    const safe = clientSafeMessage(new Error(text), { roots });
    expect(safe).toBe('checkpoint not written: (SQL omitted)');
    expectIdempotent(safe);
  });
});

describe("Node's errors and stacks", () => {
  it('an ENOENT names the file under its root, or by its last segment', async () => {
    const e = await failure(readFile(join(work, 'runs', 'B1-1', 'missing.json')));
    expect(e.message).toContain(work);
    expect(clientSafeMessage(e, { roots })).toBe(
      "ENOENT: no such file or directory, open '$LAB_WORK_DIR/runs/B1-1/missing.json'",
    );
    expect(clientSafeMessage(e)).toBe("ENOENT: no such file or directory, open '…/missing.json'");
  });

  it('never carries a stack, not even one a crashed process printed', () => {
    const e = new Error(`cannot open ${work}/x`);
    const safe = clientSafeMessage(e, { roots });
    expect(safe).toBe('cannot open $LAB_WORK_DIR/x');
    const crashed = `writer A ended without a result (exit 1): ${e.stack}\n\nNode.js ${process.version}`;
    expect(crashed).toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
    const fromCrash = clientSafeMessage(crashed, { roots });
    expect(fromCrash).toBe(
      `writer A ended without a result (exit 1): Error: cannot open $LAB_WORK_DIR/x\nNode.js ${process.version}`,
    );
    expectNoServerFolder(fromCrash);
    expectIdempotent(fromCrash);
  });

  it('drops the source lines Prisma quotes with its call, and the file they are in', () => {
    const prisma = [
      '',
      'Invalid `prisma.run.update()` invocation in',
      '/work/main/apps/api/src/races/store.ts:83:30',
      '',
      '  80 export async function saveRun(db: Db, raceId: string, r: RunResult): Promise<void> {',
      '  82   await db.$transaction(async (tx) => {',
      '→ 83     const run = await tx.run.update(',
      'An operation failed because it depends on one or more records that were required but not found.',
    ].join('\n');
    const safe = clientSafeMessage(new Error(prisma));
    expect(safe).toBe(
      'Invalid `prisma.run.update()` invocation\nAn operation failed because it depends on one or more records that were required but not found.',
    );
    expectIdempotent(safe);
  });
});

describe('bounds and roots', () => {
  it('bounds the text, and a bounded text stays as it is', () => {
    const safe = clientSafeMessage(new Error(`${work}/x: ${'a'.repeat(10_000)}`), { roots });
    expect(safe).toHaveLength(MAX_SAFE_MESSAGE);
    expect(safe.startsWith('$LAB_WORK_DIR/x: aaa')).toBe(true);
    expect(safe.endsWith('…')).toBe(true);
    expectIdempotent(safe);
  });

  it('the deepest root names a path; a root itself is named by its name alone; file:// URLs too', () => {
    const deep: NamedRoot[] = namedRoots({ workDir: '/srv/lab', dataDir: '/srv/lab/tlc', roots: ['/srv/tables'] });
    expect(
      clientSafeMessage('TLC files found in /srv/lab/tlc, but scaling real data is not defined', { roots: deep }),
    ).toBe('TLC files found in $LAB_DATA_DIR, but scaling real data is not defined');
    expect(
      clientSafeMessage("cannot read file:///srv/tables/sales/x.json and '/srv/lab/data/y'", { roots: deep }),
    ).toBe("cannot read $LAB_ROOTS/sales/x.json and '$LAB_WORK_DIR/data/y'");
    expect(clientSafeMessage('not found: /srv/other/secret/file.parquet.', { roots: deep })).toBe(
      'not found: …/file.parquet.',
    );
  });
});

describe('a writer process that fails at run time', () => {
  it('stores DuckDB’s error without its SQL or the folders of the files it read', async () => {
    const table = join(work, 'runs', 'append-1');
    await writeDeltaTable(table, rows(1, 2));
    const dayFile = join(work, 'data', 'feb-2025-02-01.parquet');
    mkdirSync(join(work, 'data'));
    writeFileSync(dayFile, 'truncated by a full disk');
    const [writer] = await race(
      [
        {
          kind: 'race',
          format: 'delta',
          table,
          writer: { name: 'A', operation: { kind: 'append', day: '2025-02-01' } },
          rowsFile: dayFile,
        },
      ],
      Date.now(),
      { workDir: work },
    );
    expect(writer).toMatchObject({ name: 'A', committed: false, errorClass: 'Error' });
    expect(writer?.errorMessage).toBe(
      "DuckDB could not run a query: Invalid Input Error: No magic bytes found at end of file '$LAB_WORK_DIR/data/feb-2025-02-01.parquet'",
    );
  });
});
