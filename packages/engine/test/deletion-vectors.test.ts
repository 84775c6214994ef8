/**
 * Deletion vectors: decoding (Z85, UUID paths, the 64-bit portable RoaringBitmap, file framing, checksum and
 * cardinality), checked on the vectors Delta Spark and delta-kernel-rs wrote and on our own encoder's; every
 * storage type read through the engine's scans, counts and `matchingFiles`; checkpoints that keep the vectors;
 * vacuum keeping the files the vectors of kept files live in.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import {
  type Add,
  commit,
  type DeletionVectorDescriptor,
  DeletionVectorError,
  DeltaTable,
  field,
  fromLogPath,
  matchingFiles,
  PathRefusedError,
  readDeletionVector,
  removeFor,
  type StructType,
  vacuum,
  withConnection,
  writeCheckpoint,
  writeDeltaTable,
} from '../src/index';
import { relativeDvPath } from '../src/kernel/delta/dv/descriptor';
import { fileKey } from '../src/kernel/delta/log/replay';
import { dvFileReader } from '../src/ops/delta/dv/locate';
import {
  type DvStorage,
  dataFilePath,
  dvBitmap,
  dvFile,
  putDeletionVectors,
  z85Encode,
} from './helpers/deletion-vectors';
import { tempDir } from './helpers/tmp';

const scratch = tempDir('deletion-vectors');
const GOLDEN_DV_SMALL = fixture('delta-golden', 'table-with-dv-small');
const SPARK = fixture('delta-spark-golden');
const SPARK_DV_TABLES = ['dv-partitioned-with-checkpoint', 'log-replay-dv-key-cases'];

const noFile = async (): Promise<Uint8Array> => {
  throw new Error('an inline vector reads no file');
};
const fromDir = (dir: string) => async (s: { kind: string; key?: string }) => readFileSync(join(dir, s.key ?? ''));

/** Every deletion vector a table's JSON commits name, with the action that names it. */
function loggedVectors(dir: string): { file: string; kind: 'add' | 'remove'; dv: DeletionVectorDescriptor }[] {
  const log = join(dir, '_delta_log');
  return readdirSync(log)
    .filter((f) => /^\d{20}\.json$/.test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(join(log, f), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"deletionVector":{'))
        .map((line) => {
          const action = JSON.parse(line);
          const kind = action.add ? ('add' as const) : ('remove' as const);
          return { file: f, kind, dv: (action.add ?? action.remove).deletionVector };
        }),
    );
}

describe('decoding', () => {
  it('derives the file of a relative vector from its Z85 UUID and prefix, as delta-kernel-rs does', () => {
    expect(relativeDvPath('ab^-aqEH.-t@S}K{vb[*k^')).toBe(
      'ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin',
    );
    expect(relativeDvPath('vBn[lx{q8@P<9BNH/isA')).toBe('deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin');
    expect(() => relativeDvPath('short')).toThrow(/too short/);
    expect(() => relativeDvPath('ab~-aqEH.-t@S}K{vb[*k^')).toThrow(/'~' at 0 is not a Z85 character/);
  });

  it("reads delta-kernel-rs's inline vector (rows 3, 4, 7, 11, 18, 29)", async () => {
    const dv = {
      storageType: 'i',
      pathOrInlineDv: '^Bg9^0rr910000000000iXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L',
      sizeInBytes: 44,
      cardinality: 6,
    };
    expect([...(await readDeletionVector(dv, noFile))]).toEqual([3, 4, 7, 11, 18, 29]);
  });

  it('reads every vector of the golden tables, as many rows as each descriptor says', async () => {
    const small = loggedVectors(GOLDEN_DV_SMALL);
    expect(small).toHaveLength(1);
    expect([
      ...(await readDeletionVector((small[0] as { dv: DeletionVectorDescriptor }).dv, fromDir(GOLDEN_DV_SMALL))),
    ]).toEqual([0, 9]);
    const keyCases = join(SPARK, 'log-replay-dv-key-cases', 'delta');
    const added = loggedVectors(keyCases).filter((v) => v.kind === 'add');
    const positions = await Promise.all(added.map((v) => readDeletionVector(v.dv, fromDir(keyCases))));
    expect(positions.map((p) => [...p])).toEqual([[0], [0, 7], [0, 7, 14]]);
    const partitioned = join(SPARK, 'dv-partitioned-with-checkpoint', 'delta');
    const all = loggedVectors(partitioned);
    expect(all.length).toBeGreaterThan(10);
    for (const { dv } of all) expect((await readDeletionVector(dv, fromDir(partitioned))).length).toBe(dv.cardinality);
  });

  it('decodes array, bitset and run containers, and rows past 2^32, as our own encoder writes them', async () => {
    const bitsetRows = Array.from({ length: 5000 }, (_, i) => 70_000 + 3 * i);
    const runRows = Array.from({ length: 3000 }, (_, i) => (i < 1500 ? i : 200_000 + i));
    const cases: [string, number[], boolean][] = [
      ['array', [5, 1, 65_535, 65_536, 1_000_000], false],
      ['bitset', bitsetRows, false],
      ['run', runRows, true],
      ['several buckets', [7, 2 ** 32 + 1, 3 * 2 ** 32 + 65_537], false],
      ['empty', [], false],
    ];
    for (const [name, rows, runs] of cases) {
      const bitmap = dvBitmap(rows, { runs });
      if (name === 'run') {
        // The 32-bit bitmap's cookie says it has run containers: this case really reads them.
        expect(new DataView(bitmap.buffer).getUint32(16, true) & 0xffff).toBe(12347);
      }
      const inline = {
        storageType: 'i',
        pathOrInlineDv: z85Encode(bitmap),
        sizeInBytes: bitmap.length,
        cardinality: rows.length,
      };
      expect([...(await readDeletionVector(inline, noFile))], name).toEqual([...rows].sort((a, b) => a - b));
    }
  });

  it('reads vectors at their offsets in a shared file', async () => {
    const bitmaps = [dvBitmap([1, 2]), dvBitmap([4_000_000]), dvBitmap(Array.from({ length: 5000 }, (_, i) => 2 * i))];
    const { bytes, offsets } = dvFile(bitmaps);
    const read = async () => bytes;
    const dv = (i: number, cardinality: number) => ({
      storageType: 'u',
      pathOrInlineDv: 'vBn[lx{q8@P<9BNH/isA',
      offset: offsets[i],
      sizeInBytes: (bitmaps[i] as Uint8Array).length,
      cardinality,
    });
    expect([...(await readDeletionVector(dv(0, 2), read))]).toEqual([1, 2]);
    expect([...(await readDeletionVector(dv(1, 1), read))]).toEqual([4_000_000]);
    expect((await readDeletionVector(dv(2, 5000), read)).at(-1)).toBe(9998);
  });

  describe('a corrupt vector is a clear error', () => {
    const golden = readFileSync(join(GOLDEN_DV_SMALL, 'deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin'));
    const dv = { storageType: 'u', pathOrInlineDv: 'vBn[lx{q8@P<9BNH/isA', offset: 1, sizeInBytes: 36, cardinality: 2 };
    const changed = (at: number, value: number) => {
      const copy = Uint8Array.from(golden);
      copy[at] = value;
      return async () => copy;
    };
    const cases: [string, DeletionVectorDescriptor, () => Promise<Uint8Array>, RegExp][] = [
      ['a changed bitmap byte', dv, changed(20, (golden[20] ?? 0) ^ 1), /CRC-32 checksum mismatch/],
      [
        'a cardinality the bitmap does not have',
        { ...dv, cardinality: 3 },
        async () => golden,
        /deletes 2 rows but its descriptor says cardinality 3/,
      ],
      [
        'a size the file does not say',
        { ...dv, sizeInBytes: 40 },
        async () => golden,
        /the file says 36 bytes, the descriptor 40/,
      ],
      ['an unknown file version', dv, changed(0, 2), /format version 1/],
      ['an offset past the file', { ...dv, offset: 100 }, async () => golden, /offset 100 is outside the file/],
      ['a file cut short', dv, async () => golden.subarray(0, 30), /ends before the vector/],
      [
        'an unknown storage type',
        { ...dv, storageType: 'x' },
        async () => golden,
        /unknown deletion vector storage type 'x'/,
      ],
    ];
    it.each(cases)('%s', async (_name, descriptor, read, message) => {
      const error = await readDeletionVector(descriptor, read).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeletionVectorError);
      expect((error as Error).message).toMatch(message);
    });

    it('a truncated inline bitmap, and the native RoaringBitmap format', async () => {
      const bitmap = dvBitmap([1, 2, 3]);
      const short = {
        storageType: 'i',
        pathOrInlineDv: z85Encode(bitmap.subarray(0, 16)),
        sizeInBytes: 16,
        cardinality: 3,
      };
      await expect(readDeletionVector(short, noFile)).rejects.toThrow(/the bitmap ends inside/);
      const native = Uint8Array.from(bitmap);
      new DataView(native.buffer).setUint32(0, 1681511376, true);
      const inline = {
        storageType: 'i',
        pathOrInlineDv: z85Encode(native),
        sizeInBytes: native.length,
        cardinality: 3,
      };
      await expect(readDeletionVector(inline, noFile)).rejects.toThrow(/native RoaringBitmap serialization/);
    });
  });

  it('replay keys a vector the same whether its offset is absent (commits) or null (checkpoints)', () => {
    const dv = {
      storageType: 'i',
      pathOrInlineDv: 'wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L',
      sizeInBytes: 40,
      cardinality: 6,
    };
    expect(
      fileKey({ path: 'a.parquet', deletionVector: { ...dv, offset: null } as unknown as DeletionVectorDescriptor }),
    ).toBe(fileKey({ path: 'a.parquet', deletionVector: dv }));
    expect(fileKey({ path: 'a.parquet', deletionVector: { ...dv, offset: 1 } })).not.toBe(
      fileKey({ path: 'a.parquet', deletionVector: dv }),
    );
  });
});

const SCHEMA: StructType = {
  type: 'struct',
  fields: [field('id', 'long'), field('grp', 'string'), field('v', 'double')],
};
const ROWS = Array.from({ length: 30 }, (_, i) => ({ id: i, grp: i % 3 === 0 ? 'a' : 'b', v: i / 2 }));
let tables = 0;

/** A fresh 30-row table in three files, and the ids each file holds at each row position (read from the file). */
async function freshTable(partitionBy?: string[]): Promise<{ dir: string; ids: Map<string, number[]> }> {
  const dir = join(scratch, `t${tables++}`);
  await writeDeltaTable(
    dir,
    { kind: 'rows', schema: SCHEMA, rows: ROWS },
    { rowsPerFile: 10, ...(partitionBy && { partitionBy }) },
  );
  const table = await DeltaTable.open(dir);
  const ids = new Map<string, number[]>();
  await withConnection(async (c) => {
    for (const f of table.activeFiles()) {
      const r = await c.runAndReadAll(
        `SELECT id FROM read_parquet('${dataFilePath(dir, f.path)}', file_row_number=true) ORDER BY file_row_number`,
      );
      ids.set(f.path, (r.getColumns()[0] as bigint[]).map(Number));
    }
  });
  return { dir, ids };
}

/** Deletes, in every file, the rows at positions 0 and 3 and its last row; returns the ids deleted. */
async function deleteSome(dir: string, ids: Map<string, number[]>, storage: DvStorage): Promise<Set<number>> {
  const deleted = new Map<string, number[]>();
  const gone = new Set<number>();
  for (const [path, list] of ids) {
    const positions = [...new Set([0, 3, list.length - 1])].filter((p) => p < list.length);
    deleted.set(path, positions);
    for (const p of positions) gone.add(list[p] as number);
  }
  await putDeletionVectors(dir, deleted, storage);
  return gone;
}

const idsOf = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);

describe('scans and counts leave out the rows vectors delete', () => {
  const outside = join(scratch, 'elsewhere');
  mkdirSync(outside, { recursive: true });
  const storages: [string, DvStorage | ((dir: string) => DvStorage)][] = [
    ['u, one shared file in the table folder', { type: 'u' }],
    ['u, under a random prefix folder', { type: 'u', prefix: 'x7' }],
    ['i, inline in the log', { type: 'i' }],
    ['p, an absolute file: URI inside the table', (dir) => ({ type: 'p', folder: dir })],
    ['p, an absolute file: URI outside the table, in a root the opener allows', { type: 'p', folder: outside }],
  ];
  it.each(storages)('%s', async (_name, storage) => {
    const { dir, ids } = await freshTable();
    const gone = await deleteSome(dir, ids, typeof storage === 'function' ? storage(dir) : storage);
    const table = await DeltaTable.open(dir, { roots: [outside] });
    expect(table.activeFiles().every((f) => f.deletionVector)).toBe(true);
    const live = ROWS.map((r) => r.id).filter((id) => !gone.has(id));
    expect(gone.size).toBe(9);
    expect(idsOf(await table.rows())).toEqual(live);
    expect(await table.count()).toBe(21);
    expect(await table.count("grp = 'a'")).toBe(live.filter((id) => id % 3 === 0).length);
    // Per file, as layouts and the lab read them: each file's rows net of its vector.
    const byFile = await withConnection(async (c) => {
      const rel = await table.filesRelation(c, table.activeFiles(), { withFile: true });
      return (await c.runAndReadAll(`SELECT __file, count(*) FROM (${rel}) GROUP BY ALL ORDER BY 1`)).getRows();
    });
    expect(byFile.map(([, n]) => Number(n))).toEqual([7, 7, 7]);
  });

  it('a p vector outside the table and its allowed roots is refused, naming the data file, and never read', async () => {
    const { dir, ids } = await freshTable();
    await deleteSome(dir, ids, { type: 'p', folder: outside });
    // The vector files themselves are valid: were they read, the scan would succeed.
    const refusal =
      /^refusing the deletion vector of 'part-[^']+\.parquet' \(and 2 more\): its file is at an absolute path outside the table/;
    for (const roots of [undefined, [join(scratch, 'other')]]) {
      const err = await DeltaTable.open(dir, { ...(roots && { roots }) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PathRefusedError);
      expect((err as Error).message).toMatch(refusal);
      expect((err as Error).message).not.toContain(outside);
    }
    // The reader judges each file it is asked for too, before opening it.
    const table = await DeltaTable.open(dir, { roots: [outside] });
    const dv = table.activeFiles()[0]?.deletionVector as DeletionVectorDescriptor;
    const read = dvFileReader(table.store);
    await expect(read({ kind: 'absolute', uri: dv.pathOrInlineDv, offset: 0 })).rejects.toThrow(PathRefusedError);
    // A planted URI naming a system file: refused before it is opened (read, it would fail as a malformed vector).
    const log = join(dir, '_delta_log');
    const last = readdirSync(log)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .at(-1) as string;
    const text = readFileSync(join(log, last), 'utf8').replace(
      /"pathOrInlineDv":"file:[^"]+"/g,
      '"pathOrInlineDv":"file:///etc/passwd"',
    );
    writeFileSync(join(log, last), text);
    for (const roots of [undefined, [outside]]) {
      const err = await DeltaTable.open(dir, { ...(roots && { roots }) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PathRefusedError);
      expect((err as Error).message).not.toMatch(/passwd|root:/);
    }
    await expect(
      dvFileReader(table.store, [outside])({ kind: 'absolute', uri: 'file:///etc/passwd', offset: 0 }),
    ).rejects.toThrow(PathRefusedError);
  });

  it('on a partitioned table, with the partition values of each file', async () => {
    const { dir, ids } = await freshTable(['grp']);
    const gone = await deleteSome(dir, ids, { type: 'u' });
    const table = await DeltaTable.open(dir);
    const rows = await table.rows();
    expect(idsOf(rows)).toEqual(ROWS.map((r) => r.id).filter((id) => !gone.has(id)));
    for (const r of rows) expect(r.grp).toBe(Number(r.id) % 3 === 0 ? 'a' : 'b');
  });

  it('matchingFiles counts the live rows of each file', async () => {
    const { dir, ids } = await freshTable();
    const gone = await deleteSome(dir, ids, { type: 'i' });
    const table = await DeltaTable.open(dir);
    const matches = await withConnection((c) => matchingFiles(c, table, table.parsePredicate('v >= 0')));
    expect(matches.map((m) => m.total)).toEqual([7, 7, 7]);
    expect(matches.reduce((n, m) => n + m.matched, 0)).toBe(30 - gone.size);
  });

  it('the golden tables: counts and each file net of its vector', async () => {
    const dirs = [GOLDEN_DV_SMALL, ...SPARK_DV_TABLES.map((name) => join(SPARK, name, 'delta'))];
    for (const dir of dirs) {
      const table = await DeltaTable.open(dir);
      const files = table.activeFiles();
      expect(
        files.some((f) => f.deletionVector),
        dir,
      ).toBe(true);
      const counts = await withConnection(async (c) => {
        const rel = await table.filesRelation(c, files, { withFile: true });
        const r = await c.runAndReadAll(`SELECT __file, count(*) FROM (${rel}) GROUP BY ALL`);
        return new Map((r.getRows() as [string, bigint][]).map(([k, n]) => [k, Number(n)]));
      });
      let total = 0;
      for (const f of files) {
        const live = (JSON.parse(f.stats ?? '{}').numRecords as number) - (f.deletionVector?.cardinality ?? 0);
        expect(counts.get(fromLogPath(f.path)) ?? 0, `${dir} ${f.path}`).toBe(live);
        total += live;
      }
      expect(await table.count(), dir).toBe(total);
    }
    expect(await (await DeltaTable.open(GOLDEN_DV_SMALL)).count()).toBe(8);
  });

  it('a corrupt vector fails the scan, naming the table and the data file', async () => {
    const { dir, ids } = await freshTable();
    await deleteSome(dir, ids, { type: 'u' });
    const table = await DeltaTable.open(dir);
    const dvName = readdirSync(dir).find((f) => f.startsWith('deletion_vector_')) as string;
    const bytes = readFileSync(join(dir, dvName));
    bytes[12] = (bytes[12] ?? 0) ^ 0xff;
    writeFileSync(join(dir, dvName), bytes);
    const error = await table.count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionVectorError);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toMatch(/the deletion vector of part-.*\.parquet: .*CRC-32 checksum mismatch/);
  });

  it.each([
    ['in the table folder', undefined],
    ['under a prefix folder', 'x7'],
  ])('a missing vector file %s fails the scan, naming the data file and the relative path', async (_name, prefix) => {
    const { dir, ids } = await freshTable();
    await deleteSome(dir, ids, { type: 'u', ...(prefix && { prefix }) });
    const table = await DeltaTable.open(dir);
    const folder = prefix ? join(dir, prefix) : dir;
    const dvName = readdirSync(folder).find((f) => f.startsWith('deletion_vector_')) as string;
    const relativePath = prefix ? `${prefix}/${dvName}` : dvName;
    rmSync(join(folder, dvName));
    const error = await table.count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeletionVectorError);
    const message = (error as Error).message;
    expect(message).toMatch(/the deletion vector of part-.*\.parquet: /);
    expect(message).toContain(`${relativePath}: the file is missing`);
    expect(message).not.toContain(join(folder, dvName));
  });

  it('a relation with vectors is tied to its connection: elsewhere it fails, it never returns deleted rows', async () => {
    const { dir, ids } = await freshTable();
    await deleteSome(dir, ids, { type: 'u' });
    const table = await DeltaTable.open(dir);
    const rel = await withConnection((c) => table.relation(c));
    await expect(withConnection((c) => c.runAndReadAll(`SELECT count(*) FROM (${rel})`))).rejects.toThrow(
      /__racelab_dv_.* does not exist/,
    );
  });
});

describe('checkpoints', () => {
  it.each([
    ['u', { type: 'u' } as DvStorage],
    ['i', { type: 'i' } as DvStorage],
  ])(
    'a checkpoint keeps the %s vectors of its files, and a later commit removes them by the same key',
    async (_name, storage) => {
      const { dir, ids } = await freshTable();
      const gone = await deleteSome(dir, ids, storage);
      const table = await DeltaTable.open(dir);
      await writeCheckpoint(table.store, table.state);
      const fromCheckpoint = await DeltaTable.open(dir);
      expect(fromCheckpoint.state.checkpointVersion).toBe(table.version);
      // The checkpoint gives an absent offset (inline vectors) as null.
      const vectors = (t: DeltaTable) =>
        t.activeFiles().map((f) => ({ ...f.deletionVector, offset: f.deletionVector?.offset ?? undefined }));
      expect(vectors(fromCheckpoint)).toEqual(vectors(table));
      expect(idsOf(await fromCheckpoint.rows())).toEqual(ROWS.map((r) => r.id).filter((id) => !gone.has(id)));
      // A remove written after the checkpoint names the vector as a commit does: the file leaves the table.
      const first = fromCheckpoint.activeFiles()[0] as Add;
      const { deletionVector: _fromLog, ...plain } = first;
      const dv = table.activeFiles().find((f) => f.path === first.path)?.deletionVector;
      await commit({
        store: table.store,
        readVersion: fromCheckpoint.version,
        actions: [{ commitInfo: {} }, { remove: { ...removeFor(plain as Add, Date.now()), deletionVector: dv } }],
      });
      expect((await DeltaTable.open(dir)).activeFiles().map((f) => f.path)).not.toContain(first.path);
    },
  );
});

describe('vacuum', () => {
  it('keeps the deletion vector files of the files it keeps', async () => {
    const { dir, ids } = await freshTable();
    await deleteSome(dir, ids, { type: 'u', prefix: 'q1' });
    const dvKey = `q1/${readdirSync(join(dir, 'q1'))[0]}`;
    // Old enough for any retention: only being named by an active file keeps it.
    const old = new Date(Date.now() - 30 * 86_400_000);
    utimesSync(join(dir, dvKey), old, old);
    const result = await vacuum(await DeltaTable.open(dir), { retentionHours: 0, enforceRetentionDuration: false });
    expect(result.dryRun).toBe(true);
    expect(result.files).not.toContain(dvKey);
    expect(result.files).toEqual([]);
  });
});
