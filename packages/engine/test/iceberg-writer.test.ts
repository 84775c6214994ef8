/**
 * Everything our writer produces, checked against the spec fixtures (iceberg-rust's Avro schemas with
 * field ids, valid/invalid v2 metadata) and read back by our reader; data files carry Parquet field ids.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../src/kernel/iceberg/bigint-json';
import { appendParquetToIcebergTable, createIcebergTable } from '../src/ops/iceberg/append';
import { type AvroSchema, readContainer } from '../src/ops/iceberg/avro';
import { readManifest, readManifestList } from '../src/ops/iceberg/manifest';
import { parseTableMetadata, validateTableMetadata } from '../src/ops/iceberg/metadata';
import { defaultResolvePath, toFileUri } from '../src/ops/iceberg/paths';
import { scanIcebergTable } from '../src/ops/iceberg/scan';
import { schemaFromFields } from '../src/ops/iceberg/schema';
import { snapshotIdFromUuid } from '../src/ops/iceberg/snapshot-id';
import { SqliteCatalog } from '../src/ops/iceberg/sqlite-catalog';
import { openIcebergTable } from '../src/ops/iceberg/table';
import { sqlString, withConnection } from '../src/ops/parquet/duck';
import { ICEBERG_SPEC, writeTripsParquet } from './helpers/iceberg';
import { tempDir } from './helpers/tmp';

type Rec = Record<string, unknown>;

/** field id → {name, type} for every field in a schema, nested ones included; types without docs/defaults. */
function fieldsById(schema: AvroSchema, out = new Map<number, { name: string; type: unknown }>()) {
  const norm = (t: unknown): unknown => {
    if (typeof t === 'string') return t;
    if (Array.isArray(t)) return t.map(norm);
    const o = t as Rec;
    // Record fields are compared one by one under their own ids.
    if (o.type === 'record') return { type: 'record', name: o.name };
    const { doc: _d, default: _f, ...rest } = o;
    if (rest.items !== undefined) rest.items = norm(rest.items);
    return rest;
  };
  const walk = (t: unknown) => {
    if (Array.isArray(t)) return t.forEach(walk);
    if (typeof t !== 'object' || t === null) return;
    const o = t as Rec;
    if (o.type === 'record') {
      for (const f of o.fields as Rec[]) {
        out.set(f['field-id'] as number, { name: f.name as string, type: norm(f.type) });
        walk(f.type);
      }
    }
    if (o.items !== undefined) walk(o.items);
  };
  walk(schema);
  return out;
}

function compareWithReference(
  ours: AvroSchema,
  referenceFile: string,
  exceptions: Record<number, (ref: unknown) => unknown>,
) {
  const ref = fieldsById(JSON.parse(readFileSync(join(ICEBERG_SPEC, referenceFile), 'utf8')));
  const mine = fieldsById(ours);
  let compared = 0;
  for (const [id, f] of mine) {
    const r = ref.get(id);
    if (!r) continue;
    compared++;
    expect(f.name, `field ${id}`).toBe(r.name);
    const expected = exceptions[id] ? exceptions[id](r.type) : r.type;
    if (expected !== undefined) expect(f.type, `type of field ${id} (${f.name})`).toEqual(expected);
  }
  return compared;
}

const dir = tempDir('iceberg-writer');
let catalog: SqliteCatalog;
let metadataDir: string;

beforeAll(async () => {
  catalog = await SqliteCatalog.open({ path: join(dir, 'catalog.db'), warehouse: join(dir, 'warehouse') });
  const a = await writeTripsParquet(join(dir, 'a.parquet'), 1, 20);
  const b = await writeTripsParquet(join(dir, 'b.parquet'), 100, 5);
  const t = await createIcebergTable(catalog, 'lab.trips', { schemaFrom: a });
  metadataDir = fileURLToPath(`${t.metadata.location}/metadata`);
  await appendParquetToIcebergTable(catalog, 'lab.trips', [a]);
  await appendParquetToIcebergTable(catalog, 'lab.trips', [b]);
});
afterAll(() => catalog.close());

describe('what the writer produces', () => {
  it('manifests match the reference manifest_entry schema by field id and carry the required header keys', async () => {
    const manifests = readdirSync(metadataDir).filter((f) => f.endsWith('-m0.avro'));
    expect(manifests).toHaveLength(2);
    for (const f of manifests) {
      const c = readContainer(readFileSync(join(metadataDir, f)));
      const n = compareWithReference(c.schema, 'avro_schema_manifest_entry.json', {
        // The reference's partition record is for a partitioned table; ours is unpartitioned (r102, no fields).
        102: () => ({ type: 'record', name: 'r102' }),
      });
      expect(n).toBeGreaterThanOrEqual(18);
      for (const k of ['schema', 'schema-id', 'partition-spec', 'partition-spec-id', 'format-version', 'content']) {
        expect(c.metadata[k], k).toBeDefined();
      }
      expect(c.metadata['format-version']).toBe('2');
      expect(c.metadata.content).toBe('data');
      expect(c.codec).toBe('deflate');
      const entries = (await readManifest(join(metadataDir, f), (p) => p)).entries;
      expect(entries).toHaveLength(1);
      expect(entries[0]?.status).toBe(1);
      expect(entries[0]?.sequenceNumber).toBeNull();
      const df = entries[0]?.dataFile;
      expect(df?.filePath.startsWith('file:///')).toBe(true);
      // Footer metrics per field id: every column has recordCount values; store_and_fwd_flag (5) has nulls.
      expect([...(df?.valueCounts?.keys() ?? [])].sort()).toEqual([1, 2, 3, 4, 5]);
      for (const v of df?.valueCounts?.values() ?? []) expect(v).toBe(df?.recordCount);
      expect(df?.nullValueCounts?.get(1)).toBe(0n);
      expect(df?.nullValueCounts?.get(5)).toBeGreaterThan(0n);
      expect(df?.columnSizes?.size).toBe(5);
      expect(df?.splitOffsets).toEqual([4n]);
    }
  });

  it('manifest lists match the reference manifest_file v2 schema by field id', async () => {
    const lists = readdirSync(metadataDir).filter((f) => f.startsWith('snap-'));
    expect(lists).toHaveLength(2);
    for (const f of lists) {
      const c = readContainer(readFileSync(join(metadataDir, f)));
      // 515/516 are required in v2 (spec, and pyiceberg writes plain long); the reference makes them optional.
      const unwrap = (t: unknown) => (Array.isArray(t) ? t[1] : t);
      const n = compareWithReference(c.schema, 'avro_schema_manifest_file_v2.json', { 515: unwrap, 516: unwrap });
      // Every reference field but 519 (key_metadata, which the reference lacks and we write as null).
      expect(n).toBe(18);
      for (const k of ['snapshot-id', 'parent-snapshot-id', 'sequence-number', 'format-version'])
        expect(c.metadata[k], k).toBeDefined();
      for (const m of await readManifestList(join(metadataDir, f), (p) => p))
        expect(m.manifestPath.startsWith('file:///')).toBe(true);
    }
  });

  it('every metadata file passes the v2 validator and parses back', () => {
    const files = readdirSync(metadataDir)
      .filter((f) => f.endsWith('.metadata.json'))
      .sort();
    expect(files.map((f) => f.slice(0, 5))).toEqual(['00000', '00001', '00002']);
    for (const f of files) {
      const text = readFileSync(join(metadataDir, f), 'utf8');
      expect(validateTableMetadata(parseJson(text)), f).toEqual([]);
      const m = parseTableMetadata(text, f);
      expect(m.location.startsWith('file:///')).toBe(true);
      expect(m['last-partition-id']).toBe(999);
    }
    const last = parseTableMetadata(readFileSync(join(metadataDir, files[2] as string), 'utf8'), 'last');
    expect(last.snapshots).toHaveLength(2);
    expect(last['metadata-log']).toHaveLength(2);
    expect(last['snapshot-log']).toHaveLength(2);
    expect(last.refs.main?.['snapshot-id']).toBe(last['current-snapshot-id']);
    expect(last.snapshots[1]?.['parent-snapshot-id']).toBe(last.snapshots[0]?.['snapshot-id']);
    expect(last.snapshots[1]?.summary['total-records']).toBe('25');
    // Snapshot ids are written as bare 63-bit integers, never quoted or rounded.
    const text = readFileSync(join(metadataDir, files[2] as string), 'utf8');
    expect(text).toContain(`"current-snapshot-id":${String(last['current-snapshot-id'])}`);
  });

  it('reads back all rows through the catalog', async () => {
    const scan = await scanIcebergTable(await openIcebergTable(catalog, 'lab.trips'));
    expect(scan.rowCount).toBe(25);
    expect(scan.dataFiles).toHaveLength(2);
    expect(scan.columns).toEqual(['trip_id', 'VendorID', 'tpep_pickup_datetime', 'fare_amount', 'store_and_fwd_flag']);
    expect(scan.rows[0]).toEqual(['1', '1', '2024-01-15 00:00:00', '0.0', null]);
  });

  it('data files carry Parquet field ids', async () => {
    const scan = await scanIcebergTable(await openIcebergTable(catalog, 'lab.trips'));
    for (const f of scan.dataFiles) {
      const rows = await withConnection(async (c) =>
        (
          await c.runAndReadAll(
            `SELECT name, field_id FROM parquet_schema(${sqlString(f.localPath)}) WHERE field_id IS NOT NULL`,
          )
        ).getRowObjectsJson(),
      );
      expect(rows).toEqual([
        { name: 'trip_id', field_id: '1' },
        { name: 'VendorID', field_id: '2' },
        { name: 'tpep_pickup_datetime', field_id: '3' },
        { name: 'fare_amount', field_id: '4' },
        { name: 'store_and_fwd_flag', field_id: '5' },
      ]);
    }
  });
});

describe('the metadata validator on the spec fixtures', () => {
  const read = (f: string) => parseJson(readFileSync(join(ICEBERG_SPEC, f), 'utf8'));
  it.each(['TableMetadataV2Valid.json', 'TableMetadataV2ValidMinimal.json'])('accepts %s', (f) => {
    expect(validateTableMetadata(read(f))).toEqual([]);
    expect(() => parseTableMetadata(readFileSync(join(ICEBERG_SPEC, f), 'utf8'), f)).not.toThrow();
  });
  it('rejects TableMetadataV2MissingSchemas.json', () => {
    expect(validateTableMetadata(read('TableMetadataV2MissingSchemas.json'))).toContain(
      'missing required field schemas',
    );
  });
  it('rejects TableMetadataV2CurrentSchemaNotFound.json', () => {
    expect(validateTableMetadata(read('TableMetadataV2CurrentSchemaNotFound.json'))).toContain(
      'current-schema-id 2 is not among the schemas',
    );
  });
  it('keeps 63-bit snapshot ids exact', () => {
    const m = parseTableMetadata(readFileSync(join(ICEBERG_SPEC, 'TableMetadataV2Valid.json'), 'utf8'), 'valid');
    expect(m['current-snapshot-id']).toBe(3055729675574597004n);
  });
});

describe('snapshot ids', () => {
  it('follow pyiceberg: XOR of the uuid halves, little-endian, signed, made positive', () => {
    // halves 00..00 and 01 00..00 → bytes [1,0,0,0,0,0,0,0] little-endian → 1
    expect(snapshotIdFromUuid('00000000-0000-0000-0100-000000000000')).toBe(1n);
    // 0xff.. xor 0 → -1 → 1
    expect(snapshotIdFromUuid('ffffffff-ffff-ffff-0000-000000000000')).toBe(1n);
  });
});

describe('explicit schemas and paths', () => {
  it('casts source columns to the table schema and fills absent optional columns with NULL', async () => {
    const schema = schemaFromFields([
      { name: 'trip_id', type: 'long', required: true },
      { name: 'VendorID', type: 'long' },
      { name: 'note', type: 'string' },
    ]);
    await createIcebergTable(catalog, 'lab.explicit', { schema, location: join(dir, 'explicit') });
    await appendParquetToIcebergTable(catalog, 'lab.explicit', [join(dir, 'b.parquet')]);
    const scan = await scanIcebergTable(await openIcebergTable(catalog, 'lab.explicit'));
    expect(scan.columns).toEqual(['trip_id', 'VendorID', 'note']);
    expect(scan.rows[0]).toEqual(['100', '1', null]);
    const types = await withConnection(async (c) =>
      (
        await c.runAndReadAll(
          `SELECT name, type, field_id FROM parquet_schema(${sqlString(scan.dataFiles[0]?.localPath as string)}) WHERE field_id IS NOT NULL`,
        )
      ).getRowObjectsJson(),
    );
    expect(types).toEqual([
      { name: 'trip_id', type: 'INT64', field_id: '1' },
      { name: 'VendorID', type: 'INT64', field_id: '2' },
      { name: 'note', type: 'BYTE_ARRAY', field_id: '3' },
    ]);
  });

  it('refuses a source that lacks a required column', async () => {
    const schema = schemaFromFields([{ name: 'missing', type: 'long', required: true }]);
    await createIcebergTable(catalog, 'lab.strict', { schema, location: join(dir, 'strict') });
    await expect(appendParquetToIcebergTable(catalog, 'lab.strict', [join(dir, 'b.parquet')])).rejects.toThrow(
      'Source Parquet has no column missing, which the table requires',
    );
  });

  it('writes file:// URIs and reads URIs, bare absolute and relative paths', () => {
    expect(toFileUri('/a/b c')).toBe('file:///a/b%20c');
    expect(defaultResolvePath('file:///a/b%20c')).toBe('/a/b c');
    expect(defaultResolvePath('file:/a/b')).toBe('/a/b');
    expect(defaultResolvePath('/a/b')).toBe('/a/b');
    expect(defaultResolvePath('rel/x.avro')).toBe(join(process.cwd(), 'rel/x.avro'));
    expect(() => defaultResolvePath('s3://bucket/x')).toThrow(/Unsupported scheme/);
  });
});
