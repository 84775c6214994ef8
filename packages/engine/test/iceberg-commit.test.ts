/**
 * Commit and retry semantics in one process, made deterministic: requirement failures with pyiceberg's
 * messages, the lost swap through `beforeSwap`, retries that rebuild the snapshot, and backoff bounds
 * with an injected sleep and clock.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backoffMs, retryPolicyFrom, withCommitRetry } from '../src/kernel/iceberg/commit-retry';
import { CommitFailedException } from '../src/kernel/iceberg/types';
import { appendParquetToIcebergTable, createIcebergTable, prepareIcebergAppend } from '../src/ops/iceberg/append';
import { scanIcebergTable } from '../src/ops/iceberg/scan';
import { SqliteCatalog } from '../src/ops/iceberg/sqlite-catalog';
import { openIcebergTable } from '../src/ops/iceberg/table';
import { writeTripsParquet } from './helpers/iceberg';
import { tempDir } from './helpers/tmp';

const dir = tempDir('iceberg-commit');
let catalog: SqliteCatalog;
let source: string;
let n = 0;

beforeAll(async () => {
  catalog = await SqliteCatalog.open({ path: join(dir, 'catalog.db'), warehouse: join(dir, 'wh') });
  source = await writeTripsParquet(join(dir, 'src.parquet'), 1, 4);
});
afterAll(() => catalog.close());

/** A fresh table, optionally seeded with one snapshot (so a lost race reports "has changed"). */
async function table(properties: Record<string, string> = {}, seed = true): Promise<string> {
  const id = `lab.t${++n}`;
  await createIcebergTable(catalog, id, { schemaFrom: source, properties });
  if (seed) await appendParquetToIcebergTable(catalog, id, [source]);
  return id;
}

/** The catalog row must always name a metadata file that exists. */
async function expectRowPointsAtFile(id: string): Promise<string> {
  const t = await openIcebergTable(catalog, id);
  expect(existsSync(fileURLToPath(t.metadataLocation))).toBe(true);
  return t.metadataLocation;
}

const noSleep = async () => {};

describe('requirements', () => {
  it('a writer that loaded before another commit fails with "branch main has changed" (0 retries)', async () => {
    const id = await table({ 'commit.retry.num-retries': '0' });
    const base = await openIcebergTable(catalog, id);
    const a = await prepareIcebergAppend(base, [source]);
    const b = await prepareIcebergAppend(base, [source]);
    const ra = await a.commit();
    expect(ra.attempts).toBe(1);
    await expect(b.commit()).rejects.toThrow(
      new CommitFailedException(
        `Requirement failed: branch main has changed: expected id ${String(base.metadata['current-snapshot-id'])}, found ${ra.snapshotId}`,
      ),
    );
    await expectRowPointsAtFile(id);
    // The loser's manifests and manifest list are removed; its data file stays (as pyiceberg leaves it).
    const metaDir = fileURLToPath(`${base.metadata.location}/metadata`);
    expect(readdirSync(metaDir).filter((f) => f.endsWith('.avro'))).toHaveLength(4);
  });

  it('on an empty table the loser gets "branch main was created concurrently"', async () => {
    const id = await table({ 'commit.retry.num-retries': '0' }, false);
    const base = await openIcebergTable(catalog, id);
    const a = await prepareIcebergAppend(base, [source]);
    const b = await prepareIcebergAppend(base, [source]);
    await a.commit();
    const err = await b.commit().catch((e: Error) => e);
    expect(err).toBeInstanceOf(CommitFailedException);
    expect((err as Error).name).toBe('CommitFailedException');
    expect((err as Error).message).toBe('Requirement failed: branch main was created concurrently');
  });
});

describe('the lost swap, interleaved with beforeSwap', () => {
  it('fails with "Table has been updated by another process" and leaves the row on a real file', async () => {
    const id = await table({ 'commit.retry.num-retries': '0' });
    const base = await openIcebergTable(catalog, id);
    const a = await prepareIcebergAppend(base, [source]);
    const b = await prepareIcebergAppend(base, [source]);
    let bResult = '';
    // A passes its requirement check and writes its file; B commits completely; then A swaps.
    const err = await a
      .commit({
        beforeSwap: async () => {
          bResult = (await b.commit()).metadataLocation;
        },
      })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(CommitFailedException);
    expect((err as Error).message).toBe(`Table has been updated by another process: ${id}`);
    expect(await expectRowPointsAtFile(id)).toBe(bResult);
    // A's metadata file was written before the swap and stays behind as an orphan.
    const metaDir = fileURLToPath(`${base.metadata.location}/metadata`);
    expect(readdirSync(metaDir).filter((f) => f.startsWith('00002-'))).toHaveLength(2);
  });

  it('with retries, the loser warns once, rebuilds against the new head and lands with the same snapshot id', async () => {
    const id = await table();
    const base = await openIcebergTable(catalog, id);
    const a = await prepareIcebergAppend(base, [source]);
    const b = await prepareIcebergAppend(base, [source]);
    const sleeps: number[] = [];
    const warnings: string[] = [];
    let once = false;
    const ra = await a.commit({
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onWarning: (w) => warnings.push(w),
      beforeSwap: async () => {
        if (once) return;
        once = true;
        await b.commit();
      },
    });
    expect(ra.attempts).toBe(2);
    expect(ra.snapshotId).toBe(a.snapshotId);
    expect(warnings).toEqual(ra.warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Commit failed due to a concurrent update, retrying \(1\/4\) in 1(0\d|10) ms$/);
    expect(sleeps[0]).toBeGreaterThanOrEqual(100);
    expect(sleeps[0]).toBeLessThanOrEqual(110);
    const t = await openIcebergTable(catalog, id);
    const head = t.metadata.snapshots.at(-1);
    expect(String(head?.['snapshot-id'])).toBe(a.snapshotId);
    expect(String(head?.['parent-snapshot-id'])).toBe(b.snapshotId);
    expect(head?.['sequence-number']).toBe(3);
    expect(head?.summary['total-records']).toBe('12');
    const scan = await scanIcebergTable(t);
    expect(scan.rowCount).toBe(12);
    // The data file written once by prepare is the one committed on the retry.
    expect(scan.dataFiles.map((f) => f.filePath)).toContain(a.dataFile.filePath);
    // The first attempt's manifest and list were deleted: 3 snapshots → 3 manifests + 3 lists.
    const metaDir = fileURLToPath(`${t.metadata.location}/metadata`);
    expect(readdirSync(metaDir).filter((f) => f.endsWith('.avro'))).toHaveLength(6);
    await expectRowPointsAtFile(id);
  });

  it('prints the warning to stderr by default', async () => {
    const id = await table();
    const base = await openIcebergTable(catalog, id);
    const a = await prepareIcebergAppend(base, [source]);
    const b = await prepareIcebergAppend(base, [source]);
    await b.commit();
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await a.commit({ sleep: noSleep });
      expect(spy.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^Commit failed due to a concurrent update, retrying \(1\/4\) in \d+ ms\n$/),
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('backoff', () => {
  const fail = async (): Promise<never> => {
    throw new CommitFailedException('x');
  };

  it('reads commit.retry.* with pyiceberg defaults and clamps to ≥ 0', () => {
    expect(retryPolicyFrom({})).toEqual({
      numRetries: 4,
      minWaitMs: 100,
      maxWaitMs: 60_000,
      totalTimeoutMs: 1_800_000,
    });
    expect(retryPolicyFrom({ 'commit.retry.num-retries': '-3' }).numRetries).toBe(0);
    expect(() => retryPolicyFrom({ 'commit.retry.min-wait-ms': 'soon' })).toThrow(/commit.retry.min-wait-ms/);
  });

  it.each([
    ['no jitter', () => 0],
    ['full jitter', () => 0.999999],
    ['random jitter', Math.random],
  ])('waits within [min·2^a, 1.1·min·2^a], capped at max (%s)', async (_name, random) => {
    const policy = retryPolicyFrom({ 'commit.retry.num-retries': '6', 'commit.retry.max-wait-ms': '1000' });
    const sleeps: number[] = [];
    const warnings: string[] = [];
    const err = await withCommitRetry(
      policy,
      { attempt: fail, refresh: async () => null },
      { sleep: async (ms) => void sleeps.push(ms), random, onWarning: (w) => warnings.push(w) },
    ).catch((e: Error) => e);
    expect(err).toBeInstanceOf(CommitFailedException);
    expect(sleeps).toHaveLength(6);
    sleeps.forEach((ms, a) => {
      const base = Math.min(100 * 2 ** a, 1000);
      expect(ms).toBeGreaterThanOrEqual(base);
      expect(ms).toBeLessThanOrEqual(base * 1.1);
    });
    expect(warnings.map((w) => w.replace(/in \d+ ms/, ''))).toEqual(
      [1, 2, 3, 4, 5, 6].map((k) => `Commit failed due to a concurrent update, retrying (${k}/6) `),
    );
    expect(backoffMs(10, policy, () => 0)).toBe(1000);
  });

  it('gives up once the total timeout has elapsed', async () => {
    let t = 0;
    const sleeps: number[] = [];
    const attempts: number[] = [];
    const policy = retryPolicyFrom({ 'commit.retry.total-timeout-ms': '250' });
    const err = await withCommitRetry(
      policy,
      {
        attempt: async (i) => {
          attempts.push(i);
          return fail();
        },
        refresh: async () => null,
      },
      {
        now: () => t,
        random: () => 0,
        sleep: async (ms) => {
          sleeps.push(ms);
          t += ms;
        },
        onWarning: () => {},
      },
    ).catch((e: Error) => e);
    expect(err).toBeInstanceOf(CommitFailedException);
    // Fails at t=0 (sleep 100), t=100 (sleep 200), t=300 ≥ 250: no third sleep.
    expect(sleeps).toEqual([100, 200]);
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('0 retries: one attempt, no sleep', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    await expect(
      withCommitRetry(
        retryPolicyFrom({ 'commit.retry.num-retries': '0' }),
        {
          attempt: async () => {
            calls++;
            return fail();
          },
          refresh: async () => null,
        },
        { sleep: async (ms) => void sleeps.push(ms) },
      ),
    ).rejects.toThrow(CommitFailedException);
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(
      withCommitRetry(retryPolicyFrom({}), {
        attempt: async () => {
          calls++;
          throw new Error('disk full');
        },
        refresh: async () => null,
      }),
    ).rejects.toThrow('disk full');
    expect(calls).toBe(1);
  });
});

describe('bad input', () => {
  const row = (id: string) => {
    const db = new Database(join(dir, 'catalog.db'));
    const [ns, name] = id.split('.') as [string, string];
    return {
      set: (loc: string | null) =>
        db
          .prepare('UPDATE iceberg_tables SET metadata_location = ? WHERE table_namespace = ? AND table_name = ?')
          .run(loc, ns, name),
      close: () => db.close(),
    };
  };

  it('a catalog row pointing at a missing file names the row and the file', async () => {
    const id = await table();
    const r = row(id);
    r.set('file:///nowhere/00009-x.metadata.json');
    r.close();
    await expect(openIcebergTable(catalog, id)).rejects.toThrow(
      `Catalog row for ${id} (catalog default, metadata_location file:///nowhere/00009-x.metadata.json): Metadata file does not exist: /nowhere/00009-x.metadata.json`,
    );
  });

  it('a catalog row without a metadata location', async () => {
    const id = await table();
    const r = row(id);
    r.set(null);
    r.close();
    await expect(openIcebergTable(catalog, id)).rejects.toThrow(
      `Catalog row for ${id} (catalog default) has no metadata_location`,
    );
  });

  it('corrupt metadata JSON names the file', async () => {
    const id = await table();
    const t = await openIcebergTable(catalog, id);
    const { writeFileSync } = await import('node:fs');
    const file = fileURLToPath(t.metadataLocation);
    writeFileSync(file, '{"format-version": 2, "table-uuid": ');
    await expect(openIcebergTable(catalog, id)).rejects.toThrow(`Corrupt metadata JSON: metadata file ${file}`);
    writeFileSync(file, '{"format-version": 2}');
    await expect(openIcebergTable(catalog, id)).rejects.toThrow(
      `Invalid table metadata in metadata file ${file}: missing required field table-uuid`,
    );
  });

  it('a missing manifest or data file names the file', async () => {
    const id = await table();
    const t = await openIcebergTable(catalog, id);
    const { rmSync } = await import('node:fs');
    const scan = await scanIcebergTable(t);
    rmSync(scan.dataFiles[0]?.localPath as string);
    await expect(scanIcebergTable(t)).rejects.toThrow(`Data file does not exist: ${scan.dataFiles[0]?.localPath}`);
    const metaDir = fileURLToPath(`${t.metadata.location}/metadata`);
    const manifest = readdirSync(metaDir).find((f) => f.endsWith('-m0.avro')) as string;
    rmSync(join(metaDir, manifest));
    await expect(scanIcebergTable(t)).rejects.toThrow(`manifest does not exist: ${join(metaDir, manifest)}`);
  });

  it('a corrupt manifest list names the file', async () => {
    const id = await table();
    const t = await openIcebergTable(catalog, id);
    const { writeFileSync } = await import('node:fs');
    const list = fileURLToPath(t.metadata.snapshots[0]?.['manifest-list'] as string);
    writeFileSync(list, 'Obj\x01 not really');
    await expect(scanIcebergTable(t)).rejects.toThrow(`Corrupt manifest list ${list}: truncated Avro data`);
    writeFileSync(list, 'PAR1');
    await expect(scanIcebergTable(t)).rejects.toThrow(`Corrupt manifest list ${list}: not an Avro container file`);
  });

  it('a commit that fails before the swap leaves the row on its old, existing file', async () => {
    const id = await table();
    const before = await expectRowPointsAtFile(id);
    const a = await prepareIcebergAppend(await openIcebergTable(catalog, id), [source]);
    await expect(
      a.commit({
        beforeSwap: async () => {
          throw new Error('crash before swap');
        },
      }),
    ).rejects.toThrow('crash before swap');
    expect(await expectRowPointsAtFile(id)).toBe(before);
  });

  it('creating a table twice fails like pyiceberg', async () => {
    const id = await table({}, false);
    await expect(createIcebergTable(catalog, id, { schemaFrom: source })).rejects.toThrow(`Table ${id} already exists`);
  });
});

describe('catalog layouts', () => {
  it('works on the older pyiceberg layout without iceberg_type (and leaves it that way)', async () => {
    const path = join(dir, 'v0.db');
    const db = new Database(path);
    db.exec(
      'CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, ' +
        'table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), ' +
        'PRIMARY KEY (catalog_name, table_namespace, table_name))',
    );
    const v0 = await SqliteCatalog.open({ path, warehouse: join(dir, 'wh-v0') });
    try {
      await createIcebergTable(v0, 'ns.old', { schemaFrom: source });
      const r = await appendParquetToIcebergTable(v0, 'ns.old', [source]);
      const rows = db.prepare('SELECT * FROM iceberg_tables').all() as Record<string, unknown>[];
      expect(Object.keys(rows[0] ?? {})).not.toContain('iceberg_type');
      expect(rows[0]?.previous_metadata_location).toMatch(/00000-.*\.metadata\.json$/);
      expect(String((await openIcebergTable(v0, 'ns.old')).metadata['current-snapshot-id'])).toBe(r.snapshotId);
    } finally {
      await v0.close();
      db.close();
    }
  });

  it('creates the newer layout with iceberg_type = TABLE and the namespace row', async () => {
    const db = new Database(join(dir, 'catalog.db'));
    try {
      const row = db.prepare("SELECT iceberg_type FROM iceberg_tables WHERE table_name = 't1'").get() as {
        iceberg_type: string;
      };
      expect(row.iceberg_type).toBe('TABLE');
      expect(
        db
          .prepare("SELECT property_key, property_value FROM iceberg_namespace_properties WHERE namespace = 'lab'")
          .all(),
      ).toEqual([{ property_key: 'exists', property_value: 'true' }]);
    } finally {
      db.close();
    }
  });
});
