/**
 * Delta tables cross the boundary both ways with the real Delta Spark 4.4.0 on Spark 4.2.0: tables the engine writes
 * (flat, partitioned after its update and delete, column-mapped ones it creates in name and id mode and Spark's golden
 * one it commits on, one with its checkpoint, its commits on tables carrying deletion vectors) are read by Spark with
 * the same rows and version; a table Spark writes with deletion vectors, column mapping by name, a checkpoint, its
 * `.crc` files and `_staged_commits` folder in `_delta_log` is read by the engine with the same rows and version
 * (docs/fidelity.md, "Cross-reading"). All Spark work runs in one JVM: python/tests/spark_tables.py, started once.
 *
 * It needs the Python side with Spark (`npm run setup:python`). Without Spark it is skipped with the reason in its
 * name, except under CI, where it fails with that reason.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Add, DeltaTable, deleteRows, update, writeCheckpoint, writeDeltaTable } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { REPO_ROOT } from '../src/build/repo-root';
import { pythonEnv } from '../src/real/python-env';
import { sparkHostCommand } from '../src/real/spark-host';
import { libraryMissing, type Read, readByEngine, rowsOf, SCHEMA, sorted } from './helpers/cross-read';

const missing = await libraryMissing('delta-spark');

/** How long the session may take to start, and one task to run (2 shared cores: a JVM starts in ~10-30 s). */
const START_MS = 180_000;
const TASK_MS = 120_000;

/** The one Spark session of this file: a task per line on its stdin, an answer per line on its stdout. */
class SparkTables {
  private readonly answers: AsyncIterator<string>;
  /** Everything the session logged (Spark's logging goes to stderr). */
  log = '';
  private readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    child.stderr.on('data', (d: Buffer) => {
      this.log += d.toString();
    });
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  static async start(): Promise<{ spark: SparkTables; ready: { ready: number; spark: string } }> {
    const host = sparkHostCommand(await pythonEnv('delta-spark'));
    const child = spawn(host.command, ['-m', 'tests.spark_tables'], {
      cwd: REPO_ROOT,
      env: host.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const spark = new SparkTables(child);
    return { spark, ready: await spark.next() };
  }

  private async next<T>(): Promise<T> {
    const line = await this.answers.next();
    if (line.done) throw new Error(`the Spark session ended: ${this.log.slice(-4000)}`);
    return JSON.parse(line.value) as T;
  }

  /** Runs one task; a failed one is an exception with Spark's message. */
  async ask<T>(task: object): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(task)}\n`);
    const answer = await this.next<T & { error?: string }>();
    if (answer.error) throw new Error(`Spark: ${answer.error}`);
    return answer;
  }

  sql = (...statements: string[]): Promise<object> => this.ask({ sql: statements });

  /** The table as Spark reads it. */
  read = async (dir: string, columns: string[] = []): Promise<Read> => {
    const r = await this.ask<Read>({ read: dir, columns });
    return { version: r.version, rows: sorted(r.rows) };
  };

  /** Ends stdin (the session stops); the process group is stopped if it has not exited in time. */
  async stop(): Promise<void> {
    this.child.stdin.end();
    const bound = setTimeout(() => {
      if (this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
    }, 30_000);
    await this.exited;
    clearTimeout(bound);
  }
}

/** Removes commits `from` to `to` (excluded), as a log cleanup before a checkpoint does. */
const dropCommits = (dir: string, from: number, to: number): void => {
  for (let v = from; v < to; v++) rmSync(join(dir, '_delta_log', `${String(v).padStart(20, '0')}.json`));
};

/** Every action of the table's commits, oldest first. */
const logActions = (dir: string): { add?: Add; protocol?: object }[] =>
  readdirSync(join(dir, '_delta_log'))
    .filter((f) => /^\d{20}\.json$/.test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, '_delta_log', f), 'utf8')
        .trim()
        .split('\n'),
    )
    .map((line) => JSON.parse(line));

describe.skipIf(missing !== null)(
  `Delta tables cross both ways with the real Delta Spark 4.4.0 (Spark 4.2.0)${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    const work = mkdtempSync(join(tmpdir(), 'racelab-cross-spark-'));
    let tables = 0;
    const fresh = (): string => join(work, `t${tables++}`);
    let spark: SparkTables;

    beforeAll(async () => {
      const started = Date.now();
      const up = await SparkTables.start();
      spark = up.spark;
      expect(up.ready.spark).toBe('4.2.0');
      console.info(`the Spark session was up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, START_MS);
    afterAll(async () => {
      await spark?.stop();
      rmSync(work, { recursive: true, force: true });
    }, 60_000);

    describe('tables the engine writes, read by Delta Spark', () => {
      it(
        'a flat table: same rows and version',
        async () => {
          const dir = fresh();
          await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 5) });
          await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(5, 3) }, { mode: 'append' });
          const engine = await readByEngine(dir);
          expect(engine).toMatchObject({ version: 1 });
          expect(engine.rows).toHaveLength(8);
          expect(await spark.read(dir)).toEqual(engine);
        },
        TASK_MS,
      );

      it(
        'a partitioned table, updated and deleted from by the engine: same rows and version',
        async () => {
          const dir = fresh();
          await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 6) }, { partitionBy: ['part'] });
          await update(await DeltaTable.open(dir), { predicate: 'id = 2', set: { name: "'two'" } });
          await deleteRows(await DeltaTable.open(dir), "part = 'odd' AND id > 2");
          const engine = await readByEngine(dir);
          expect(engine.version).toBe(2);
          expect(engine.rows.map((r) => r.id)).toEqual([0, 1, 2, 4]);
          expect(engine.rows.find((r) => r.id === 2)?.name).toBe('two');
          expect(await spark.read(dir)).toEqual(engine);
        },
        TASK_MS,
      );

      for (const mode of ['name', 'id'] as const) {
        it(
          `a column-mapped table the engine creates (${mode} mode, partitioned), appended to: same rows and version`,
          async () => {
            const dir = fresh();
            const options = { partitionBy: ['part'], configuration: { 'delta.columnMapping.mode': mode } };
            await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 5) }, options);
            await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(5, 20) }, { mode: 'append' });
            expect((await DeltaTable.open(dir)).columnMapping).toBe(mode);
            const engine = await readByEngine(dir);
            expect(engine).toMatchObject({ version: 1 });
            expect(engine.rows).toHaveLength(25);
            expect(await spark.read(dir)).toEqual(engine);
          },
          TASK_MS,
        );
      }

      it(
        "the engine's append, update and delete on Spark's golden column-mapped table (name mode): same rows and version",
        async () => {
          const dir = fresh();
          cpSync(fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'), dir, {
            recursive: true,
          });
          const cols = ['LongType', 'StringType'];
          const t = await DeltaTable.open(dir);
          expect(t.columnMapping).toBe('name');
          await writeDeltaTable(
            dir,
            { kind: 'rows', schema: t.schema, rows: [{ LongType: 70, StringType: 'seventy' }] },
            { mode: 'append' },
          );
          await update(await DeltaTable.open(dir), { predicate: 'LongType = 1', set: { StringType: "'one'" } });
          await deleteRows(await DeltaTable.open(dir), 'LongType = 3');
          const engine = await readByEngine(dir, cols);
          expect(engine.version).toBe(3);
          expect(engine.rows).toContainEqual({ LongType: 70, StringType: 'seventy' });
          expect(engine.rows).toContainEqual({ LongType: 1, StringType: 'one' });
          expect(engine.rows.map((r) => r.LongType)).not.toContain(3);
          expect(await spark.read(dir, cols)).toEqual(engine);
        },
        TASK_MS,
      );

      it(
        'a table with a checkpoint the engine wrote: same rows and version',
        async () => {
          const dir = fresh();
          await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 2) });
          for (let i = 1; i <= 3; i++)
            await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(i * 10, 2) }, { mode: 'append' });
          const t = await DeltaTable.open(dir);
          await writeCheckpoint(t.store, t.state);
          expect(existsSync(join(dir, '_delta_log', '00000000000000000003.checkpoint.parquet'))).toBe(true);
          await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(90, 1) }, { mode: 'append' });
          // Without the commits before the checkpoint, a reader can only start from the engine's checkpoint.
          dropCommits(dir, 0, 3);
          const engine = await readByEngine(dir);
          expect(engine).toMatchObject({ version: 4 });
          expect(engine.rows).toHaveLength(9);
          expect(await spark.read(dir)).toEqual(engine);
        },
        TASK_MS,
      );

      it(
        "the engine's update and delete on a table carrying deletion vectors: same rows and version",
        async () => {
          const dir = fresh();
          cpSync(fixture('delta-golden', 'table-with-dv-small'), dir, { recursive: true });
          const before = await readByEngine(dir);
          expect(await spark.read(dir)).toEqual(before);
          const column = (await DeltaTable.open(dir)).schema.fields[0]?.name ?? '';
          const values = before.rows.map((r) => Number(r[column])).sort((a, b) => a - b);
          await update(await DeltaTable.open(dir), { predicate: `${column} = ${values[0]}`, set: { [column]: '100' } });
          await deleteRows(await DeltaTable.open(dir), `${column} = ${values[1]}`);
          const engine = await readByEngine(dir);
          expect(engine.version).toBe(before.version + 2);
          expect(engine.rows).toHaveLength(before.rows.length - 1);
          expect(await spark.read(dir)).toEqual(engine);
        },
        TASK_MS,
      );
    });

    describe('a table Delta Spark writes, read by the engine', () => {
      it('deletion vectors, column mapping by name, a checkpoint, .crc files and _staged_commits: same rows and version; the engine commits on it and Spark reads those', async () => {
        const dir = fresh();
        const table = `delta.\`${dir}\``;
        const parts = (from: number, to: number) =>
          `INSERT INTO ${table} SELECT id, concat('n', id), IF(id % 2 = 1, 'odd', 'even') FROM range(${from}, ${to})`;
        await spark.sql(
          `CREATE TABLE ${table} (id BIGINT, name STRING, part STRING) USING delta PARTITIONED BY (part) TBLPROPERTIES (` +
            "'delta.enableDeletionVectors' = 'true', 'delta.columnMapping.mode' = 'name', 'delta.checkpointInterval' = '3')",
          parts(0, 20),
          parts(20, 30),
          `DELETE FROM ${table} WHERE id % 5 = 0`,
          `UPDATE ${table} SET name = 'upd' WHERE id = 7`,
          `ALTER TABLE ${table} RENAME COLUMN name TO label`,
        );
        const log = readdirSync(join(dir, '_delta_log'));
        // What the log holds besides commits and checkpoints, which the engine's reader must pass over.
        expect(log).toContain('00000000000000000005.crc');
        expect(log).toContain('_staged_commits');
        expect(log).toContain('00000000000000000003.checkpoint.parquet');
        // The delete and the update wrote deletion vectors instead of rewriting files.
        expect(logActions(dir).filter((a) => a.add?.deletionVector).length).toBeGreaterThan(0);

        // A staged commit is not the table's until a catalog publishes it: neither reader may take it. This one
        // would add the first insert's rows again as version 6.
        const staged = join(
          dir,
          '_delta_log',
          '_staged_commits',
          '00000000000000000006.3b9e6a3c-5d1f-4d0b-9a52-0c2b1e1f4a77.json',
        );
        cpSync(join(dir, '_delta_log', '00000000000000000001.json'), staged);
        // The log cleaned up before Spark's checkpoint: both readers must start from it (it holds the deletion vectors).
        dropCommits(dir, 0, 3);

        const written = await spark.read(dir);
        expect(written.version).toBe(5);
        expect(written.rows).toHaveLength(24);
        expect(written.rows).toContainEqual({ id: 7, label: 'upd', part: 'odd' });
        const engine = await readByEngine(dir);
        expect(engine).toEqual(written);
        const opened = await DeltaTable.open(dir);
        expect(opened.columnMapping).toBe('name');
        expect(opened.protocol.readerFeatures).toEqual(expect.arrayContaining(['deletionVectors', 'columnMapping']));

        // The engine's commits on Spark's table, read back by Spark.
        await writeDeltaTable(
          dir,
          { kind: 'rows', schema: opened.schema, rows: [{ id: 100, label: 'hundred', part: 'even' }] },
          { mode: 'append' },
        );
        await update(await DeltaTable.open(dir), { predicate: 'id = 8', set: { label: "'eight'" } });
        await deleteRows(await DeltaTable.open(dir), 'id = 9');
        const after = await readByEngine(dir);
        expect(after.version).toBe(8);
        expect(after.rows).toHaveLength(24);
        expect(after.rows).toContainEqual({ id: 100, label: 'hundred', part: 'even' });
        expect(after.rows).toContainEqual({ id: 8, label: 'eight', part: 'even' });
        expect(await spark.read(dir)).toEqual(after);

        // The engine's checkpoint of it (deletion vectors and physical names inside), the only start Spark has.
        const last = await DeltaTable.open(dir);
        await writeCheckpoint(last.store, last.state);
        dropCommits(dir, 3, 8);
        expect(await readByEngine(dir)).toEqual(after);
        // Spark's checksum of the `_last_checkpoint` the engine replaced went with it: a stale one fails Spark's read
        // of it (Spark then lists the log instead, and says so).
        expect(readdirSync(join(dir, '_delta_log'))).not.toContain('._last_checkpoint.crc');
        expect(await spark.read(dir)).toEqual(after);
        expect(spark.log).not.toContain('ChecksumException');
      }, 300_000);

      it('column mapping by id, a v2 checkpoint with sidecars, timestamps, dates, decimals and arrays: same rows and version both ways', async () => {
        const dir = fresh();
        const table = `delta.\`${dir}\``;
        await spark.sql(
          `CREATE TABLE ${table} (id BIGINT, ts TIMESTAMP, d DATE, amount DECIMAL(10,2), tags ARRAY<STRING>, part STRING) ` +
            "USING delta PARTITIONED BY (part) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', " +
            "'delta.columnMapping.mode' = 'id', 'delta.checkpointInterval' = '2', 'delta.checkpointPolicy' = 'v2')",
          `INSERT INTO ${table} SELECT id, TIMESTAMP'2024-03-01 12:00:00' + make_interval(0, 0, 0, 0, id, 0, 0), ` +
            "DATE'2024-01-01' + CAST(id AS INT), CAST(id * 1.25 AS DECIMAL(10,2)), array('a', CAST(id AS STRING)), " +
            "IF(id % 2 = 1, 'odd', 'even') FROM range(12)",
          `DELETE FROM ${table} WHERE id IN (3, 4)`,
          `UPDATE ${table} SET amount = 99.99 WHERE id = 5`,
        );
        const log = readdirSync(join(dir, '_delta_log'));
        expect(log.filter((f) => /^0{19}2\.checkpoint\.[0-9a-f-]{36}\.json$/.test(f))).toHaveLength(1);
        expect(readdirSync(join(dir, '_delta_log', '_sidecars')).length).toBeGreaterThan(0);
        dropCommits(dir, 0, 2);
        const written = await spark.read(dir);
        expect(written.version).toBe(3);
        expect(written.rows).toContainEqual({
          id: 5,
          ts: '2024-03-01T17:00:00.000Z',
          d: '2024-01-06T00:00:00.000Z',
          amount: 99.99,
          tags: ['a', '5'],
          part: 'odd',
        });
        expect(await readByEngine(dir)).toEqual(written);

        // The engine's append, delete and (classic-named) checkpoint on it, read back by Spark from that checkpoint.
        const opened = await DeltaTable.open(dir);
        expect(opened.columnMapping).toBe('id');
        const row = { id: 100, ts: new Date('2024-05-01T00:00:00Z'), d: new Date('2024-05-01'), amount: 1.5 };
        await writeDeltaTable(
          dir,
          { kind: 'rows', schema: opened.schema, rows: [{ ...row, tags: ['x'], part: 'even' }] },
          { mode: 'append' },
        );
        await deleteRows(await DeltaTable.open(dir), 'id = 6');
        const last = await DeltaTable.open(dir);
        await writeCheckpoint(last.store, last.state);
        dropCommits(dir, 2, 5);
        const after = await readByEngine(dir);
        expect(after.version).toBe(5);
        expect(after.rows.map((r) => r.id)).toEqual([0, 1, 10, 100, 11, 2, 5, 7, 8, 9]);
        expect(await spark.read(dir)).toEqual(after);
        expect(spark.log).not.toContain('ChecksumException');
      }, 300_000);

      it(
        'row tracking: the engine reads the table, and refuses to write it as delta-rs 1.6.6 does',
        async () => {
          const dir = fresh();
          const table = `delta.\`${dir}\``;
          await spark.sql(
            `CREATE TABLE ${table} (id BIGINT) USING delta TBLPROPERTIES ('delta.enableRowTracking' = 'true')`,
            `INSERT INTO ${table} SELECT id FROM range(4)`,
          );
          const written = await spark.read(dir);
          expect(written).toEqual({ version: 1, rows: [0, 1, 2, 3].map((id) => ({ id })) });
          expect(await readByEngine(dir)).toEqual(written);
          const schema = (await DeltaTable.open(dir)).schema;
          await expect(
            writeDeltaTable(dir, { kind: 'rows', schema, rows: [{ id: 9 }] }, { mode: 'append' }),
          ).rejects.toThrow('Unsupported table features required: [DomainMetadata, RowTracking]');
        },
        TASK_MS,
      );
    });
  },
);
