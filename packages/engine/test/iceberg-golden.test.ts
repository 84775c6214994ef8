/**
 * The pyiceberg tables in fixtures/iceberg-golden, read through their SQLite catalogs and
 * compared with expected.json: current snapshot, snapshots, data files, row count and rows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanIcebergTable } from '../src/ops/iceberg/scan';
import { SqliteCatalog } from '../src/ops/iceberg/sqlite-catalog';
import { openIcebergTable } from '../src/ops/iceberg/table';
import { copyGoldenCatalog, goldenResolver, ICEBERG_GOLDEN } from './helpers/iceberg';
import { tempDir } from './helpers/tmp';

const tables = readdirSync(ICEBERG_GOLDEN)
  .filter((n) => !n.includes('.'))
  .sort();
const dir = tempDir('iceberg-golden');
const catalogs: SqliteCatalog[] = [];
afterAll(async () => {
  for (const c of catalogs) await c.close();
});

describe.each(tables)('golden Iceberg table %s', (name) => {
  const exp = JSON.parse(readFileSync(join(ICEBERG_GOLDEN, name, 'expected.json'), 'utf8'));
  const row = exp.catalog.rows[0];
  const open = async () => {
    const catalog = await SqliteCatalog.open({
      path: copyGoldenCatalog(name, dir),
      name: row.catalog_name,
      resolvePath: goldenResolver,
    });
    catalogs.push(catalog);
    return openIcebergTable(catalog, `${row.table_namespace}.${row.table_name}`);
  };

  it('matches expected.json', async () => {
    const table = await open();
    expect(table.metadataLocation).toBe(row.metadata_location);
    const m = table.metadata;
    expect(String(m['current-snapshot-id'])).toBe(exp.currentSnapshotId);
    expect(m.snapshots.length).toBe(exp.snapshotCount);
    expect(
      m.snapshots.map((s) => ({
        snapshotId: String(s['snapshot-id']),
        parentSnapshotId: s['parent-snapshot-id'] === undefined ? null : String(s['parent-snapshot-id']),
        sequenceNumber: s['sequence-number'],
        operation: s.summary.operation,
        totalRecords: Number(s.summary['total-records']),
        totalDataFiles: Number(s.summary['total-data-files']),
      })),
    ).toEqual(exp.snapshots);
    const schema = m.schemas.find((s) => s['schema-id'] === m['current-schema-id']);
    expect({ schemaId: schema?.['schema-id'], fields: schema?.fields }).toEqual(exp.currentSchema);

    const scan = await scanIcebergTable(table);
    expect(scan.snapshotId).toBe(exp.currentSnapshotId);
    const files = scan.dataFiles
      .map((f) => ({
        file_path: f.filePath,
        content: f.content,
        record_count: f.recordCount,
        file_size_in_bytes: f.fileSizeInBytes,
      }))
      .sort((a, b) => a.file_path.localeCompare(b.file_path));
    expect(files).toEqual(exp.currentSnapshotDataFiles);
    expect(scan.rowCount).toBe(exp.rowCount);
    expect(scan.dataFiles.reduce((a, f) => a + f.recordCount, 0)).toBe(exp.rowCountSources.manifestRecordCountSum);
    expect(Number(table.metadata.snapshots.at(-1)?.summary['total-records'])).toBe(
      exp.rowCountSources.snapshotSummaryTotalRecords,
    );
    expect(scan.rows.map((r) => r.map((v) => v ?? 'NULL'))).toEqual(exp.rowsReadFromParquetByUs);
    expect(scan.columns).toEqual(exp.currentSchema.fields.map((f: { name: string }) => f.name));
  });
});
