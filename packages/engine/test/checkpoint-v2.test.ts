/**
 * v2 checkpoints (PROTOCOL.md "V2 Spec", "Checkpoint Naming Scheme"): a `checkpointMetadata` action naming the
 * version, file actions inline or in sidecar Parquet files under `_delta_log/_sidecars/`, top-level files in
 * JSON or Parquet, UUID-named or classic-named. Built from Delta Spark's `v2-checkpoint-json` table with its
 * commits removed, so that the checkpoint is the only way to the state: every form must give the same rows.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { DeltaTable, LogFormatError, withConnection } from '../src/index';
import { tempDir } from './helpers/tmp';

const source = fixture('delta-spark-golden', 'v2-checkpoint-json', 'delta');
const root = tempDir('checkpoint-v2');
const UUID_NAME = '00000000000000000002.checkpoint.6374b053-df23-479b-b2cf-c9c550132b49';
const log = (dir: string, name = '') => join(dir, '_delta_log', name);

let copies = 0;
/** A copy of the table without its commits: only the v2 checkpoint (and `_last_checkpoint`) lead to version 2. */
function checkpointOnly(): string {
  const dir = join(root, `t${copies++}`);
  cpSync(source, dir, { recursive: true });
  for (const f of readdirSync(log(dir))) if (/^\d{20}\.json$/.test(f)) rmSync(log(dir, f));
  return dir;
}

/** The JSON checkpoint's actions, one object per line. */
const jsonActions = (dir: string): Record<string, unknown>[] =>
  readFileSync(log(dir, `${UUID_NAME}.json`), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const writeJson = (path: string, actions: readonly object[]) =>
  writeFileSync(path, actions.map((a) => JSON.stringify(a)).join('\n'));

/** The checkpoint's actions as a Parquet checkpoint, one struct column per action, as Delta Spark writes them. */
async function writeParquet(path: string, actions: readonly object[]): Promise<void> {
  const json = `${path}.tmp.json`;
  writeJson(json, actions);
  const map = 'MAP(VARCHAR, VARCHAR)';
  const columns = {
    checkpointMetadata: `STRUCT(version BIGINT, tags ${map})`,
    sidecar: `STRUCT(path VARCHAR, sizeInBytes BIGINT, modificationTime BIGINT, tags ${map})`,
    protocol:
      'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
    metaData: `STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options ${map}), schemaString VARCHAR, partitionColumns VARCHAR[], createdTime BIGINT, configuration ${map})`,
    add: `STRUCT(path VARCHAR, partitionValues ${map}, size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR)`,
  };
  const spec = Object.entries(columns)
    .map(([k, t]) => `${k}: '${t}'`)
    .join(', ');
  await withConnection((c) =>
    c.run(
      `COPY (SELECT * FROM read_json('${json}', format='newline_delimited', columns={${spec}})) TO '${path}' (FORMAT parquet)`,
    ),
  );
  rmSync(json);
}

let expected: unknown[];
beforeAll(async () => {
  const t = await DeltaTable.open(source);
  expected = await t.query((rel) => `SELECT id FROM (${rel}) ORDER BY id`);
  expect(expected.length).toBe(10);
});

async function readsFromCheckpoint(dir: string): Promise<void> {
  const t = await DeltaTable.open(dir);
  expect(t.version).toBe(2);
  expect(t.state.checkpointVersion).toBe(2);
  expect(t.protocol.readerFeatures).toEqual(['v2Checkpoint']);
  expect(await t.query((rel) => `SELECT id FROM (${rel}) ORDER BY id`)).toEqual(expected);
}

describe('the forms of a v2 checkpoint all give the table', () => {
  it('UUID-named JSON with sidecars, found through _last_checkpoint', async () => {
    const dir = checkpointOnly();
    expect(JSON.parse(readFileSync(log(dir, '_last_checkpoint'), 'utf8')).v2Checkpoint.path).toBe(`${UUID_NAME}.json`);
    await readsFromCheckpoint(dir);
  });

  it('UUID-named Parquet with sidecars', async () => {
    const dir = checkpointOnly();
    await writeParquet(log(dir, `${UUID_NAME}.parquet`), jsonActions(dir));
    rmSync(log(dir, `${UUID_NAME}.json`));
    await readsFromCheckpoint(dir);
  });

  it('classic-named Parquet following the v2 spec, with sidecars', async () => {
    const dir = checkpointOnly();
    await writeParquet(log(dir, '00000000000000000002.checkpoint.parquet'), jsonActions(dir));
    rmSync(log(dir, `${UUID_NAME}.json`));
    await readsFromCheckpoint(dir);
  });

  it('UUID-named JSON holding the adds itself, no sidecars', async () => {
    const dir = checkpointOnly();
    const adds = (await DeltaTable.open(source)).activeFiles().map((add) => ({ add: { ...add, dataChange: false } }));
    writeJson(log(dir, `${UUID_NAME}.json`), [...jsonActions(dir).filter((a) => !('sidecar' in a)), ...adds]);
    rmSync(log(dir, '_sidecars'), { recursive: true });
    await readsFromCheckpoint(dir);
  });
});

describe('which checkpoint of a version is read', () => {
  it('a UUID-named one over multi-part and classic ones, and of two UUID-named ones the greater name', async () => {
    const dir = checkpointOnly();
    // Garbage under every name that must lose: reading any of them would fail the load.
    for (const name of [
      '00000000000000000002.checkpoint.parquet',
      '00000000000000000002.checkpoint.0000000001.0000000002.parquet',
      '00000000000000000002.checkpoint.0000000002.0000000002.parquet',
      '00000000000000000002.checkpoint.00000000-0000-0000-0000-000000000000.json',
    ]) {
      writeFileSync(log(dir, name), 'not a checkpoint');
    }
    await readsFromCheckpoint(dir);
  });
});

describe('a broken v2 checkpoint fails, naming what is wrong', () => {
  it('a missing sidecar', async () => {
    const dir = checkpointOnly();
    const [sidecar] = readdirSync(log(dir, '_sidecars')).filter((f) => f.endsWith('.parquet'));
    rmSync(log(dir, `_sidecars/${sidecar}`));
    const error = await DeltaTable.open(dir).catch((e: Error) => e);
    expect(error).toBeInstanceOf(LogFormatError);
    expect(String(error)).toContain(`sidecar file(s) missing: _delta_log/_sidecars/${sidecar}`);
  });

  it('a missing sidecar with every JSON commit there: the commits give the table, with a warning', async () => {
    const dir = join(root, `t${copies++}`);
    cpSync(source, dir, { recursive: true });
    const [sidecar] = readdirSync(log(dir, '_sidecars')).filter((f) => f.endsWith('.parquet'));
    rmSync(log(dir, `_sidecars/${sidecar}`));
    const t = await DeltaTable.open(dir);
    expect([t.version, t.state.checkpointVersion]).toEqual([2, null]);
    expect(await t.query((rel) => `SELECT id FROM (${rel}) ORDER BY id`)).toEqual(expected);
    expect(t.state.warnings).toEqual([
      `_delta_log/${UUID_NAME}.json: unreadable checkpoint skipped, version 2 loaded from the JSON commits from version 0 instead (sidecar file(s) missing: _delta_log/_sidecars/${sidecar})`,
    ]);
  });

  it('checkpointMetadata naming another version', async () => {
    const dir = checkpointOnly();
    const actions = jsonActions(dir).map((a) =>
      'checkpointMetadata' in a ? { checkpointMetadata: { version: 1 } } : a,
    );
    writeJson(log(dir, `${UUID_NAME}.json`), actions);
    await expect(DeltaTable.open(dir)).rejects.toThrow(/checkpointMetadata says version 1/);
  });

  it('a UUID-named checkpoint without checkpointMetadata', async () => {
    const dir = checkpointOnly();
    writeJson(
      log(dir, `${UUID_NAME}.json`),
      jsonActions(dir).filter((a) => !('checkpointMetadata' in a)),
    );
    await expect(DeltaTable.open(dir)).rejects.toThrow(/must hold one checkpointMetadata action, found 0/);
  });

  it('a sidecar outside _delta_log/_sidecars/', async () => {
    const dir = checkpointOnly();
    const actions = jsonActions(dir).map((a) =>
      'sidecar' in a ? { sidecar: { ...(a.sidecar as object), path: 's3://elsewhere/x.parquet' } } : a,
    );
    writeJson(log(dir, `${UUID_NAME}.json`), actions);
    await expect(DeltaTable.open(dir)).rejects.toThrow(
      /sidecar paths outside _delta_log\/_sidecars\/ are not supported/,
    );
  });
});
