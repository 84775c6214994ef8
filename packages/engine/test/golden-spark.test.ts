/**
 * Every case of fixtures/delta-spark-golden's cases.json (Delta Spark's golden tables, as delta-kernel-rs's
 * golden tests use them), driven from that file alone: a new table is a new directory and a line in cases.json.
 *
 * - `read`: the latest version's rows equal the rows Spark read back (`expected/*.parquet`) as a multiset, by
 *   column name, and the count agrees.
 * - `error`: opening and reading fails with one of the engine's own errors, whose message names the table.
 * - `checkpoint`: the snapshot starts from the newest checkpoint and holds what a replay of the JSON commits holds.
 * - `skip`: cases the reference reader skips; each is attempted, and the ones that read are counted as a bonus.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import {
  DataFileMissingError,
  DeltaTable,
  deltaToDuckType,
  LogFormatError,
  NotATableError,
  SchemaError,
  StorageError,
  type StructType,
  UnsupportedFeatureError,
  VersionNotFoundError,
  withConnection,
} from '../src/index';
import { canonicalRows } from './helpers/rows';
import { tempDir } from './helpers/tmp';

type Kind = 'read' | 'error' | 'checkpoint' | 'skip';
interface Case {
  expect: Kind;
  hasExpectedRows: boolean;
  upstreamSkipReason?: string;
}

const root = fixture('delta-spark-golden');
const cases = JSON.parse(readFileSync(join(root, 'cases.json'), 'utf8')) as Record<string, Case>;
const named = (kind: Kind) =>
  Object.entries(cases)
    .filter(([, c]) => c.expect === kind)
    .map(([name]) => name)
    .sort();
const tableDir = (name: string) => join(root, name, 'delta');
const scratch = tempDir('golden-spark');

const ENGINE_ERRORS = [
  DataFileMissingError,
  LogFormatError,
  NotATableError,
  SchemaError,
  StorageError,
  UnsupportedFeatureError,
  VersionNotFoundError,
];

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;
const fileList = (paths: readonly string[]) => `[${paths.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ')}]`;

/** The table's rows at its latest version, in the canonical form of helpers/rows.ts. */
async function tableRows(t: DeltaTable): Promise<string[]> {
  const rows = await withConnection(async (c) => {
    const rel = await t.relation(c);
    return (await c.runAndReadAll(`SELECT * FROM (${rel})`)).getRowObjectsJson() as Record<string, unknown>[];
  });
  return canonicalRows(rows, t.schema.fields);
}

/**
 * The rows Spark read back, held in the table's own types (as the engine's scan holds them) so both sides are
 * compared as values of the same type, whatever Parquet types Spark chose for `expected/`.
 */
async function expectedRows(name: string, schema: StructType): Promise<string[]> {
  const dir = join(root, name, 'expected');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.parquet') && !f.startsWith('.'))
    .map((f) => join(dir, f));
  if (files.length === 0) return [];
  const rows = await withConnection(async (c) => {
    const described = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${fileList(files)})`);
    const columns = (described.getColumns()[0] as string[]).sort();
    expect(columns, 'expected/ has exactly the columns of the table').toEqual(schema.fields.map((f) => f.name).sort());
    const cols = schema.fields.map((f) => `CAST(${ident(f.name)} AS ${deltaToDuckType(f.type)}) AS ${ident(f.name)}`);
    const r = await c.runAndReadAll(`SELECT ${cols.join(', ')} FROM read_parquet(${fileList(files)})`);
    return r.getRowObjectsJson() as Record<string, unknown>[];
  });
  return canonicalRows(rows, schema.fields);
}

/** Opens the latest version and checks every row (and the count) against `expected/`. */
async function readsExactly(name: string): Promise<void> {
  const t = await DeltaTable.open(tableDir(name));
  const expected = await expectedRows(name, t.schema);
  expect(await tableRows(t)).toEqual(expected);
  expect(await t.count()).toBe(expected.length);
}

/** A checkpoint's rows carry explicit nulls where a commit leaves a field out: the same thing. */
const present = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

const CHECKPOINT_FILE = /^(\d{20})\.checkpoint(?:\..+)?\.(?:parquet|json)$/;
const COMMIT_FILE = /^\d{20}\.json$/;

describe('read: the latest version holds exactly the rows Spark read back', () => {
  it.each(named('read'))('%s', async (name) => {
    expect(cases[name]?.hasExpectedRows).toBe(true);
    await readsExactly(name);
  });
});

describe('error: a broken table fails with a clear error', () => {
  it.each(named('error'))('%s', async (name) => {
    const dir = tableDir(name);
    const error = await (async () => {
      const t = await DeltaTable.open(dir);
      await t.rows();
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, 'opening and reading the table fails').toBeInstanceOf(Error);
    expect(
      ENGINE_ERRORS.some((c) => error instanceof c),
      `an engine error, not ${String(error)}`,
    ).toBe(true);
    expect((error as Error).message).toContain(dir);
  });
});

describe('checkpoint: the snapshot loads from the checkpoint', () => {
  it.each(named('checkpoint'))('%s', async (name) => {
    const dir = tableDir(name);
    const log = readdirSync(join(dir, '_delta_log'));
    const newest = Math.max(
      ...log
        .map((f) => CHECKPOINT_FILE.exec(f)?.[1])
        .filter((v) => v !== undefined)
        .map(Number),
    );
    const t = await DeltaTable.open(dir);
    expect(t.state.checkpointVersion).toBe(newest);
    // The same state from the JSON commits alone, when the log still has all of them.
    const commits = log.filter((f) => COMMIT_FILE.test(f));
    expect(commits.length).toBe(t.version + 1);
    const jsonOnly = join(scratch, name);
    mkdirSync(join(jsonOnly, '_delta_log'), { recursive: true });
    for (const f of commits) cpSync(join(dir, '_delta_log', f), join(jsonOnly, '_delta_log', f));
    const replayed = await DeltaTable.open(jsonOnly);
    expect(replayed.state.checkpointVersion).toBe(null);
    expect(replayed.version).toBe(t.version);
    expect(present(replayed.protocol)).toEqual(present(t.protocol));
    expect(present(replayed.metadata)).toEqual(present(t.metadata));
    const paths = (x: DeltaTable) => x.activeFiles().map((f) => `${f.path} ${JSON.stringify(f.partitionValues)}`);
    expect(paths(t).sort()).toEqual(paths(replayed).sort());
    if (cases[name]?.hasExpectedRows) await readsExactly(name);
  });
});

describe('skip: cases the reference reader skips, attempted as a bonus', () => {
  const bonus: { name: string; read: boolean; why?: string }[] = [];
  afterAll(() => {
    const read = bonus.filter((b) => b.read).map((b) => b.name);
    console.info(`delta-spark-golden skip cases read exactly: ${read.length} of ${bonus.length} (${read.join(', ')})`);
  });

  it.each(named('skip'))(
    '%s is attempted; a failure is an engine error or a row mismatch, never a crash',
    async (name) => {
      expect(existsSync(join(root, name))).toBe(true);
      try {
        if (cases[name]?.hasExpectedRows) await readsExactly(name);
        else await (await DeltaTable.open(tableDir(name))).rows();
        bonus.push({ name, read: true });
      } catch (e) {
        bonus.push({ name, read: false, why: String(e) });
        const clean = ENGINE_ERRORS.some((c) => e instanceof c) || (e as Error).name === 'AssertionError';
        expect(clean, `${name}: ${String(e)}`).toBe(true);
      }
    },
  );
});

it('cases.json names a directory for every case, and every directory has a case', () => {
  const dirs = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  expect(Object.keys(cases).sort()).toEqual(dirs);
});
